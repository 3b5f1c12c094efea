// Ring arithmetic with wrap-around and phase bits.
#include <gtest/gtest.h>

#include "models/ascend/ring.h"

using namespace symsim::udma;

TEST(Ring, SlotsAndPhasesWrap) {
  constexpr uint32_t depth = 64;
  EXPECT_EQ(ring_slot(63, depth), 63u);
  EXPECT_EQ(ring_slot(64, depth), 0u);
  EXPECT_EQ(ring_phase(63, depth), 0u);
  EXPECT_EQ(ring_phase(64, depth), 1u);
  EXPECT_EQ(ring_phase(128, depth), 0u);
  // 32-bit counters wrap too.
  EXPECT_EQ(ring_slot(0xFFFFFFFFu, depth), 63u);
  EXPECT_EQ(ring_used(3u, 0xFFFFFFFEu), 5u);
}

TEST(Ring, CqeOwnerBitFlipsEachPassAndStaleEntriesNeverLookReady) {
  constexpr uint32_t depth = 64;
  for (uint32_t i : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 1000u}) {
    const bool owner = cqe_owner_for(i, depth);
    EXPECT_TRUE(cqe_ready(owner, i, depth)) << i;
    // The entry the engine wrote one pass earlier in the same slot is not ready.
    if (i >= depth) {
      EXPECT_FALSE(cqe_ready(cqe_owner_for(i - depth, depth), i, depth)) << i;
    }
  }
  // A zeroed ring is not ready on the first pass.
  EXPECT_FALSE(cqe_ready(false, 0, depth));
}

TEST(Ring, CreditRuleMatchesCannShmem) {
  // head + bb - tail + guard < depth
  EXPECT_TRUE(sq_has_credit(100, 0, 1, 10, 128));
  EXPECT_TRUE(sq_has_credit(116, 0, 1, 10, 128));
  EXPECT_FALSE(sq_has_credit(117, 0, 1, 10, 128));
  EXPECT_FALSE(sq_has_credit(116, 0, 2, 10, 128));
  EXPECT_TRUE(sq_has_credit(0x10u, 0xFFFFFFF0u, 1, 10, 128));  // across the 32-bit wrap
}

TEST(Ring, EntryIndexUnwrapsToMonotonicTail) {
  EXPECT_EQ(unwrap16(0, 5), 5u);
  EXPECT_EQ(unwrap16(0xFFF0, 0x0005), 0x10005u);
  EXPECT_EQ(unwrap16(0x1FFFF, 0x0001), 0x20001u);
  EXPECT_EQ(unwrap16(100, 100), 100u);
}

TEST(Ring, MaskedSlotAndPhaseAreModAndDivideForPowerOfTwoDepths) {
  // ring_slot / ring_phase read the index's bits; for every power-of-two depth they are
  // index % depth and (index / depth) & 1, across the 32-bit wrap too.
  for (uint32_t depth = 1; depth != 0; depth <<= 1) {
    for (uint32_t i : {0u, 1u, 63u, 64u, 65u, 1000u, 65535u, 65536u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
      for (uint32_t index : {i, i + depth - 1, i + depth, i * 7919u}) {
        EXPECT_EQ(ring_slot(index, depth), index % depth) << index << " / " << depth;
        EXPECT_EQ(ring_phase(index, depth), (index / depth) & 1u) << index << " / " << depth;
      }
    }
  }
}
