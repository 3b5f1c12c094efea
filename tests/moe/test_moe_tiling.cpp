// The window head of a dispatch window half (moe_tiling.h): variant 3 keeps the A3 dispatch
// operator's per-(expert, source) statuses, the cores' received-token cells, the expert-input
// offsets and the tokens per local expert there; the UDMA variants one count block per rank.
#include <gtest/gtest.h>

#include "kernels/moe/common/moe_tiling.h"

namespace {

moe::MoeTiling tiling(uint32_t ep, uint32_t variant) {
  moe::MoeTiling t;
  t.ep = ep;
  t.experts_per_rank = 256 / ep;
  t.tokens = 128;
  t.variant = variant;
  t.token_blocks = 15;
  return t;
}

TEST(MoeTiling, AivDirectHeadHoldsStatusesCellsOffsetsAndTokenCountsWithoutOverlap) {
  for (uint32_t ep : {8u, 16u, 256u}) {
    const moe::MoeTiling t = tiling(ep, moe::kVariantAivDirect);
    const uint32_t statuses = t.ep * t.experts_per_rank;
    EXPECT_EQ(t.status_offset(statuses), t.core_sum_offset(0)) << ep;  // statuses, then cells
    EXPECT_EQ(t.core_sum_offset(moe::kMaxCores), t.send_count_offset(0)) << ep;
    EXPECT_GE(t.token_nums_offset(0), t.send_count_offset(statuses)) << ep;
    EXPECT_EQ(t.token_nums_offset(0) % 8, 0u) << ep;
    EXPECT_GE(t.head_bytes(), t.token_nums_offset(t.experts_per_rank)) << ep;
    EXPECT_EQ(t.head_bytes() % moe::kBlockBytes, 0u) << ep;
    EXPECT_EQ(t.slot_offset(0, 0, 0), t.head_bytes()) << ep;  // the slots start after the head
  }
  EXPECT_EQ(tiling(8, moe::kVariantAivDirect).head_bytes(), 11264u);  // 8192 + 1536 + 1024 + 256 = 11008, to 512 B
}

TEST(MoeTiling, UdmaVariantsKeepOneCountBlockPerRank) {
  for (uint32_t v : {moe::kVariantApi, moe::kVariantDirect, moe::kVariantDirectOpen}) {
    const moe::MoeTiling t = tiling(16, v);
    EXPECT_EQ(t.head_bytes(), 16u * moe::kBlockBytes);
    EXPECT_EQ(t.slot_offset(0, 0, 0), 16u * moe::kBlockBytes);
  }
}

}  // namespace
