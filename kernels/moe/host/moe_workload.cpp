#include "kernels/moe/host/moe_workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <tuple>

#include "kernels/moe/common/moe_numeric.h"

namespace moe {
namespace {

// splitmix64: a small, portable generator (std distributions differ between libraries).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(uniform() * n); }
};

uint64_t stream_seed(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
  Rng r{seed ^ (a * 0x100000001b3ull) ^ (b * 0x9e3779b1ull << 20) ^ (c << 44)};
  r.next();
  return r.next();
}

// Expert popularity: p(expert at popularity rank r) ~ 1 / (r + 1)^s over a seeded order of
// experts, so hot experts are spread over the ranks. The order is the same for every rank.
std::vector<double> expert_cdf(const WorkloadSpec& w) {
  const uint32_t n = w.experts();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  Rng r{stream_seed(w.seed, 0xe7e7, 0, 0)};
  for (uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[r.below(i)]);
  std::vector<double> p(n);
  for (uint32_t rank = 0; rank < n; ++rank) p[order[rank]] = 1.0 / std::pow(rank + 1.0, w.zipf_s);
  std::vector<double> cdf(n);
  std::partial_sum(p.begin(), p.end(), cdf.begin());
  for (double& c : cdf) c /= cdf.back();
  return cdf;
}

// The same for the last workload asked: every rank's routing (three per rank and launch) draws
// from it, and it costs a shuffle and a pow per expert (8,192 at EP 256).
const std::vector<double>& cached_expert_cdf(const WorkloadSpec& w) {
  using Key = std::tuple<uint32_t, double, uint64_t>;
  static Key key{0, 0.0, 0};
  static std::vector<double> cdf;
  const Key k{w.experts(), w.zipf_s, w.seed};
  if (cdf.empty() || k != key) {
    cdf = expert_cdf(w);
    key = k;
  }
  return cdf;
}

// routing_of's index of the pairs by the rank of their expert (a counting sort, stable).
void index_by_rank(const WorkloadSpec& w, Routing& r) {
  r.rank_begin.assign(w.ep + 1, 0);
  for (const int32_t e : r.topk_idx) ++r.rank_begin[static_cast<uint32_t>(e) / w.experts_per_rank + 1];
  for (uint32_t rank = 0; rank < w.ep; ++rank) r.rank_begin[rank + 1] += r.rank_begin[rank];
  std::vector<uint32_t> next(r.rank_begin.begin(), r.rank_begin.end() - 1);
  r.by_rank.resize(r.topk_idx.size());
  for (uint32_t p = 0; p < r.topk_idx.size(); ++p)
    r.by_rank[next[static_cast<uint32_t>(r.topk_idx[p]) / w.experts_per_rank]++] = p;
}

}  // namespace

Routing make_routing(const WorkloadSpec& w, uint32_t rank, uint32_t launch) {
  Routing out;
  const uint32_t k = w.top_k;
  out.topk_idx.resize(size_t{w.tokens} * k);
  out.topk_weight.resize(size_t{w.tokens} * k);
  const std::vector<double>& cdf = cached_expert_cdf(w);
  Rng r{stream_seed(w.seed, rank + 1, launch + 1, 1)};
  for (uint32_t t = 0; t < w.tokens; ++t) {
    int32_t* chosen = &out.topk_idx[size_t{t} * k];
    for (uint32_t j = 0; j < k; ++j) {
      int32_t e;
      do {  // top-k picks distinct experts: draw again on a repeat
        e = static_cast<int32_t>(std::lower_bound(cdf.begin(), cdf.end(), r.uniform()) - cdf.begin());
        e = std::min<int32_t>(e, static_cast<int32_t>(w.experts()) - 1);
      } while (std::find(chosen, chosen + j, e) != chosen + j);
      chosen[j] = e;
    }
    float* weight = &out.topk_weight[size_t{t} * k];
    float sum = 0;
    for (uint32_t j = 0; j < k; ++j) sum += weight[j] = 0.25f + static_cast<float>(r.uniform());
    for (uint32_t j = 0; j < k; ++j) weight[j] /= sum;
  }
  return out;
}

const Routing& routing_of(const WorkloadSpec& w, uint32_t rank, uint32_t launch) {
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, double, uint64_t, uint32_t, uint32_t>;
  static std::map<Key, Routing> cache;
  const Key key{w.ep, w.tokens, w.top_k, w.experts_per_rank, w.zipf_s, w.seed, rank, launch};
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, make_routing(w, rank, launch)).first;
    index_by_rank(w, it->second);
  }
  return it->second;
}

void make_token(const WorkloadSpec& w, uint32_t rank, uint32_t launch, uint32_t t, uint8_t* data, float* scale) {
  Rng r{stream_seed(w.seed, rank + 1, launch + 1, uint64_t{t} + 2)};
  if (w.dtype == kInt8) {
    *scale = static_cast<float>(1 + r.below(64)) / 1024.0f;
    // Eight INT8 elements per draw, low byte first: on a little-endian host that is the draw's
    // own byte order, so a whole draw is one 8-byte store (the byte-by-byte copy through a stack
    // array cost 21 instructions a draw, and the dispatch check draws every token again once
    // per rank it went to: docs/performance.md, session 32).
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a draw's bytes are stored low byte first");
    const uint32_t whole = w.hidden / 8;
    uint8_t* out = data;
    // Four draws an iteration: the loop's own increment, compare and branch once for four
    // (16 -> 14.5 instructions a draw; the draws are as many and in the same order).
#pragma GCC unroll 4
    for (uint32_t d = 0; d < whole; ++d, out += 8) {
      const uint64_t bits = r.next();
      std::memcpy(out, &bits, 8);
    }
    if (const uint32_t rest = w.hidden % 8) {
      const uint64_t bits = r.next();
      std::memcpy(out, &bits, rest);
    }
  } else {
    *scale = 1.0f;
    for (uint32_t i = 0; i < w.hidden; ++i) {
      const uint16_t h = f32_to_bf16(static_cast<float>(r.uniform() * 8.0 - 4.0));
      std::memcpy(data + 2 * i, &h, 2);
    }
  }
}

RankInput make_rank_input(const WorkloadSpec& w, uint32_t rank, uint32_t launch) {
  return make_rank_input(w, routing_of(w, rank, launch), rank, launch);  // the dispatch check draws it anyway
}

RankInput make_rank_input(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch) {
  RankInput in;
  in.topk_idx = r.topk_idx;
  in.topk_weight = r.topk_weight;
  const uint32_t row = w.hidden * w.elem_bytes();
  in.x.resize(size_t{w.tokens} * row);
  in.scales.resize(w.tokens);
  for (uint32_t t = 0; t < w.tokens; ++t) make_token(w, rank, launch, t, &in.x[size_t{t} * row], &in.scales[t]);
  return in;
}

void token_payload(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch, uint32_t t, uint8_t* out) {
  TokenHeader h{};
  h.src_rank = rank;
  h.src_token = t;
  make_token(w, rank, launch, t, out + kTokenHeaderBytes, &h.scale);
  for (uint32_t j = 0; j < kMaxTopK; ++j)
    h.experts[j] = j < w.top_k ? static_cast<int16_t>(r.topk_idx[size_t{t} * w.top_k + j]) : int16_t{-1};
  std::memcpy(out, &h, sizeof h);
}

std::vector<uint8_t> token_payload(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch,
                                   uint32_t t) {
  std::vector<uint8_t> p(kTokenHeaderBytes + w.hidden * w.elem_bytes(), 0);
  token_payload(w, r, rank, launch, t, p.data());
  return p;
}

std::vector<uint16_t> reference_combine(const WorkloadSpec& w, const RankInput& in) {
  std::vector<uint16_t> out(size_t{w.tokens} * w.hidden);
  std::vector<float> acc(w.hidden);
  std::vector<float> x(w.hidden);
  const uint32_t row = w.hidden * w.elem_bytes();
  for (uint32_t t = 0; t < w.tokens; ++t) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    // The token's input in float once, then one pass per expert (this was 15% of EP 8's
    // instructions when each expert converted the input and stored its BF16 row).
    for (uint32_t i = 0; i < w.hidden; ++i) x[i] = load_input(&in.x[size_t{t} * row], i, w.elem_bytes(), in.scales[t]);
    for (uint32_t j = 0; j < w.top_k; ++j)
      forward_accumulate(acc.data(), x.data(), w.hidden, static_cast<uint32_t>(in.topk_idx[size_t{t} * w.top_k + j]),
                         in.topk_weight[size_t{t} * w.top_k + j]);
    for (uint32_t i = 0; i < w.hidden; ++i) out[size_t{t} * w.hidden + i] = f32_to_bf16(acc[i]);
  }
  return out;
}

}  // namespace moe
