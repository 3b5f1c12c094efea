// The MoE workload generator: seeded, distinct top-k, normalised weights, Zipf skew, and the
// host reference's arithmetic. No simulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "kernels/moe/common/moe_numeric.h"
#include "kernels/moe/host/moe_workload.h"

using namespace moe;

namespace {

WorkloadSpec spec(double zipf) {
  WorkloadSpec w;
  w.ep = 16;
  w.tokens = 256;
  w.hidden = 64;
  w.top_k = 8;
  w.experts_per_rank = 4;
  w.zipf_s = zipf;
  w.seed = 7;
  return w;
}

TEST(MoeWorkload, TopKIsDistinctAndWeightsSumToOne) {
  const WorkloadSpec w = spec(0);
  const Routing r = make_routing(w, 3, 0);
  for (uint32_t t = 0; t < w.tokens; ++t) {
    std::set<int32_t> e(r.topk_idx.begin() + t * w.top_k, r.topk_idx.begin() + (t + 1) * w.top_k);
    EXPECT_EQ(e.size(), w.top_k);
    EXPECT_GE(*e.begin(), 0);
    EXPECT_LT(*e.rbegin(), static_cast<int32_t>(w.experts()));
    float sum = 0;
    for (uint32_t k = 0; k < w.top_k; ++k) sum += r.topk_weight[t * w.top_k + k];
    EXPECT_NEAR(sum, 1.0f, 1e-5f);
  }
}

TEST(MoeWorkload, SameSeedSameRoutingOtherRankOrLaunchDiffers) {
  const WorkloadSpec w = spec(0);
  EXPECT_EQ(make_routing(w, 2, 1).topk_idx, make_routing(w, 2, 1).topk_idx);
  EXPECT_NE(make_routing(w, 2, 1).topk_idx, make_routing(w, 3, 1).topk_idx);
  EXPECT_NE(make_routing(w, 2, 1).topk_idx, make_routing(w, 2, 2).topk_idx);
  EXPECT_EQ(make_rank_input(w, 1, 0).x, make_rank_input(w, 1, 0).x);
}

// The INT8 tokens are splitmix64 draws stored low byte first, eight elements a draw, the last
// draw cut short when hidden is not a multiple of 8. The hashes are of those bytes as the
// generator's definition gives them (splitmix64, stream_seed, one draw for the scale first),
// computed outside this code: a faster store of the draws must keep every byte.
TEST(MoeWorkload, Int8TokensAreTheDrawsLowByteFirst) {
  const auto fnv1a = [](const std::vector<uint8_t>& b) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const uint8_t x : b) h = (h ^ x) * 0x100000001b3ull;
    return h;
  };
  struct Case {
    uint32_t hidden, tokens;
    uint64_t hash;
  };
  for (const Case& c : {Case{64, 256, 0xb01999641fc97111ull}, Case{13, 4, 0xd36e5370e23f84b6ull},
                        Case{7168, 2, 0xbb7f3ce0295edff2ull}}) {
    WorkloadSpec w = spec(0);
    w.hidden = c.hidden;
    w.tokens = c.tokens;
    const RankInput in = make_rank_input(w, 1, 0);
    EXPECT_EQ(fnv1a(in.x), c.hash) << "hidden " << c.hidden;
    EXPECT_EQ(in.scales[0], 0.00390625f);
    EXPECT_EQ(in.scales[1], 0.0556640625f);
  }
}

// routing_of's pairs by expert rank: each rank's pairs of the routing, in pair order, exactly
// those a scan of every pair finds (the dispatch check's order of slots depends on it).
TEST(MoeWorkload, RoutingOfListsEachRanksPairsInOrder) {
  const WorkloadSpec w = spec(1.2);
  const Routing& r = routing_of(w, 5, 1);
  EXPECT_EQ(r.topk_idx, make_routing(w, 5, 1).topk_idx);
  ASSERT_EQ(r.rank_begin.size(), w.ep + 1);
  for (uint32_t rank = 0; rank < w.ep; ++rank) {
    std::vector<uint32_t> want;
    for (uint32_t p = 0; p < w.tokens * w.top_k; ++p)
      if (static_cast<uint32_t>(r.topk_idx[p]) / w.experts_per_rank == rank) want.push_back(p);
    const std::vector<uint32_t> got(r.by_rank.begin() + r.rank_begin[rank], r.by_rank.begin() + r.rank_begin[rank + 1]);
    EXPECT_EQ(got, want) << "rank " << rank;
  }
}

// The expert popularity is kept for the last workload asked: another workload in between
// changes nothing.
TEST(MoeWorkload, RoutingIsTheSameWhateverWasAskedBefore) {
  const WorkloadSpec a = spec(0), b = spec(1.2);
  const std::vector<int32_t> first = make_routing(a, 2, 0).topk_idx;
  WorkloadSpec c = spec(0);
  c.seed = 8;
  (void)make_routing(b, 2, 0);
  (void)make_routing(c, 2, 0);
  EXPECT_EQ(make_routing(a, 2, 0).topk_idx, first);
  EXPECT_NE(make_routing(b, 2, 0).topk_idx, first);
}

// With a Zipf exponent the busiest expert gets far more than its uniform share.
TEST(MoeWorkload, ZipfSkewsExpertLoad) {
  auto busiest = [](const WorkloadSpec& w) {
    std::vector<uint32_t> load(w.experts());
    for (uint32_t rank = 0; rank < w.ep; ++rank)
      for (int32_t e : make_routing(w, rank, 0).topk_idx) ++load[e];
    return *std::max_element(load.begin(), load.end());
  };
  const WorkloadSpec uniform = spec(0), skewed = spec(1.2);
  const double share = double(uniform.ep) * uniform.tokens * uniform.top_k / uniform.experts();
  EXPECT_LT(busiest(uniform), 1.5 * share);
  EXPECT_GT(busiest(skewed), 2.5 * share);
}

TEST(MoeWorkload, Bf16RoundsToNearestEven) {
  EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16_to_f32(0x3f80), 1.0f);
  EXPECT_EQ(f32_to_bf16(1.00390625f), 0x3f80);  // halfway: ties to even
  EXPECT_EQ(f32_to_bf16(1.01171875f), 0x3f82);  // halfway: ties to even (up)
}

// Combine of one token routed to experts with gains g: sum_k w_k * bf16(x * g_k).
TEST(MoeWorkload, ReferenceCombineIsTheWeightedExpertSum) {
  WorkloadSpec w = spec(0);
  w.tokens = 1;
  w.dtype = kBf16;
  const RankInput in = make_rank_input(w, 0, 0);
  const std::vector<uint16_t> out = reference_combine(w, in);
  for (uint32_t i = 0; i < w.hidden; ++i) {
    uint16_t xh;
    std::memcpy(&xh, &in.x[2 * i], 2);
    float acc = 0;
    for (uint32_t k = 0; k < w.top_k; ++k)
      acc += in.topk_weight[k] * bf16_to_f32(f32_to_bf16(bf16_to_f32(xh) * expert_gain(in.topk_idx[k])));
    EXPECT_EQ(out[i], f32_to_bf16(acc));
  }
}

// The AVX2 copies of the per-element loops give the scalar loops' bits (the kernels and the host
// reference pick one at run time), for INT8 and BF16 inputs, rounding cases and a ragged tail.
TEST(MoeWorkload, WideLoopsMatchScalarLoopsBitForBit) {
  if (!wide_host()) GTEST_SKIP() << "no AVX2 on this host: only the scalar loops run";
  const uint32_t hidden = 7168 + 13;
  std::vector<uint8_t> data(2 * hidden);
  uint64_t s = 12345;
  for (uint8_t& b : data) b = static_cast<uint8_t>((s = s * 6364136223846793005ull + 1442695040888963407ull) >> 56);
  for (const uint32_t elem_bytes : {1u, 2u}) {
    std::vector<uint16_t> narrow(hidden), wide(hidden);
    detail::forward_loop(data.data(), hidden, elem_bytes, 0.0123f, 1.375f, narrow.data());
    detail::forward_wide(data.data(), hidden, elem_bytes, 0.0123f, 1.375f, wide.data());
    EXPECT_EQ(narrow, wide) << "expert row, " << elem_bytes << " byte elements";
    std::vector<float> acc_narrow(hidden, 0.5f), acc_wide(hidden, 0.5f), x(hidden);
    detail::accumulate_loop(acc_narrow.data(), narrow.data(), hidden, 0.3f);
    detail::accumulate_wide(acc_wide.data(), narrow.data(), hidden, 0.3f);
    EXPECT_EQ(0, std::memcmp(acc_narrow.data(), acc_wide.data(), 4 * hidden)) << "weighted sum";
    for (uint32_t i = 0; i < hidden; ++i) x[i] = load_input(data.data(), i, elem_bytes, 0.0123f);
    detail::forward_accumulate_loop(acc_narrow.data(), x.data(), hidden, 1.375f, 0.7f);
    detail::forward_accumulate_wide(acc_wide.data(), x.data(), hidden, 1.375f, 0.7f);
    EXPECT_EQ(0, std::memcmp(acc_narrow.data(), acc_wide.data(), 4 * hidden)) << "reference pass";
  }
}

}  // namespace
