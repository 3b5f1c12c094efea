// The SM's L1 for plain loads (sm.l1_bytes): a load of held lines returns after the hit time, but no
// sooner than the fill bringing its line in (a warp's later lanes on a line its first lane missed);
// least recently used lines leave; an acquire empties it.
#include <gtest/gtest.h>

#include "models/nvidia/sm_l1.h"

namespace {

using symsim::Ps;
using symsim::nv::SmL1;

TEST(SmL1, AMissIsFilledAndThenHits) {
  SmL1 l1(4 * SmL1::kLineBytes);
  EXPECT_EQ(l1.hit_return_ps(0x1000, 16, 100, 35), Ps{0});  // missing: goes to L2
  l1.filled(0x1000, 16, 400);
  EXPECT_EQ(l1.hit_return_ps(0x1010, 16, 110, 35), Ps{400});   // same line, still filling: waits for the fill
  EXPECT_EQ(l1.hit_return_ps(0x1070, 16, 1000, 35), Ps{1035});  // filled: the hit time
}

TEST(SmL1, TheLeastRecentlyUsedLineLeaves) {
  SmL1 l1(2 * SmL1::kLineBytes);
  for (uint64_t a : {0x0, 0x80, 0x100}) {
    EXPECT_EQ(l1.hit_return_ps(a, 16, 0, 35), Ps{0});
    l1.filled(a, 16, 1);
  }
  EXPECT_EQ(l1.hit_return_ps(0x0, 16, 10, 35), Ps{0});  // pushed out by 0x100
  EXPECT_EQ(l1.hit_return_ps(0x100, 16, 10, 35), Ps{45});
}

TEST(SmL1, ALoadOverTwoLinesHitsOnlyWhenBothAreHeld) {
  SmL1 l1(8 * SmL1::kLineBytes);
  l1.hit_return_ps(0x0, 16, 0, 35);
  l1.filled(0x0, 16, 1);
  EXPECT_EQ(l1.hit_return_ps(0x78, 16, 10, 35), Ps{0});  // 0x78..0x87: the second line is missing
}

TEST(SmL1, ClearEmptiesIt) {
  SmL1 l1(8 * SmL1::kLineBytes);
  l1.hit_return_ps(0x0, 16, 0, 35);
  l1.filled(0x0, 16, 1);
  l1.clear();
  EXPECT_EQ(l1.hit_return_ps(0x0, 16, 10, 35), Ps{0});
}

}  // namespace
