// The MoE workload a scenario asks for: seeded top-k gating (uniform, or skewed by a Zipf
// exponent over a seeded expert order), input tokens in INT8 with a per-token scale or in BF16,
// and the host reference for what dispatch delivers and combine returns.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/moe/common/moe_tiling.h"

namespace moe {

struct WorkloadSpec {
  uint32_t ep = 8;
  uint32_t tokens = 128;  // per rank
  uint32_t hidden = 7168;
  uint32_t top_k = 8;
  uint32_t experts_per_rank = 32;
  Dtype dtype = kInt8;
  double zipf_s = 0.0;  // 0: uniform gating
  uint64_t seed = 1;

  uint32_t experts() const { return ep * experts_per_rank; }
  uint32_t elem_bytes() const { return dtype == kInt8 ? 1u : 2u; }
};

// Routing of one rank for one launch (the gate's top-k): cheap to regenerate for any rank.
struct Routing {
  std::vector<int32_t> topk_idx;    // [tokens][top_k], distinct experts per token
  std::vector<float> topk_weight;   // [tokens][top_k], positive, summing to ~1
  // Filled by routing_of only: the pairs (token * top_k + k) whose expert lives on rank r are
  // by_rank[rank_begin[r] .. rank_begin[r + 1]), in pair order. A rank's dispatch check reads
  // its own pairs of every source instead of every pair (O(EP^2) pairs a run at large EP).
  std::vector<uint32_t> rank_begin;  // [ep + 1]
  std::vector<uint32_t> by_rank;     // [tokens * top_k]
};
Routing make_routing(const WorkloadSpec& w, uint32_t rank, uint32_t launch);
// The same, generated once per process: every rank's host checks what every other rank sent,
// and regenerating EP routings on each of EP hosts costs O(EP^2) draws.
const Routing& routing_of(const WorkloadSpec& w, uint32_t rank, uint32_t launch);

// Token `t` of `rank` in `launch`: hidden elements of elem_bytes and the INT8 scale (1 for
// BF16), each token from its own seeded stream so a receiver can regenerate just that token.
void make_token(const WorkloadSpec& w, uint32_t rank, uint32_t launch, uint32_t t, uint8_t* data, float* scale);

// One rank's inputs for one launch.
struct RankInput {
  std::vector<int32_t> topk_idx;    // [tokens][top_k], distinct experts per token
  std::vector<float> topk_weight;   // [tokens][top_k], positive, summing to ~1
  std::vector<uint8_t> x;           // [tokens][hidden] elements of elem_bytes
  std::vector<float> scales;        // [tokens] (1 for BF16)
};

RankInput make_rank_input(const WorkloadSpec& w, uint32_t rank, uint32_t launch);
// The same from the rank's routing for the launch, already drawn (routing_of's cache is for the
// simulation's thread only; this runs on any).
RankInput make_rank_input(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch);

// The payload (header + data) dispatch must deliver for token `t` of `rank`.
std::vector<uint8_t> token_payload(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch, uint32_t t);
// The same into `out` (kTokenHeaderBytes + hidden * elem_bytes bytes).
void token_payload(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch, uint32_t t, uint8_t* out);

// The BF16 result of combine for `rank`: [tokens][hidden].
std::vector<uint16_t> reference_combine(const WorkloadSpec& w, const RankInput& in);

}  // namespace moe
