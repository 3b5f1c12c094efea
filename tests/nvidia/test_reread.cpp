// A 16 B data load of lines read since their last write is a re-read (l2.reread_skips_use): the
// L2 tells a line's first read after a write from a later one, and combine's reduce walk that wraps
// onto rows read before reads them faster (calibration row shim.reduce_row.l2.7k.k8.w16m.c4w4_ns;
// docs/hw-accuracy.md, forty-second pass (s36-reduce)).
#include <gtest/gtest.h>

#include "models/nvidia/l2_residency.h"
#include "tests/nvidia/nvidia_test_util.h"

namespace {

using symsim::nv::L2Residency;

TEST(Reread, ALineIsReReadUntilItIsWritten) {
  L2Residency l2(64 * L2Residency::kLineBytes);
  l2.access(0x1000, 16, /*write=*/true);  // a host copy's line
  EXPECT_FALSE(l2.reread(0x1000, 16));    // its first read
  EXPECT_TRUE(l2.reread(0x1010, 16));     // the same line again
  l2.access(0x1040, 16, /*write=*/true);  // a store to it
  EXPECT_FALSE(l2.reread(0x1000, 16));
  EXPECT_TRUE(l2.reread(0x1000, 16));
}

TEST(Reread, ALoadOverTwoLinesIsAReReadOnlyWhenBothWereRead) {
  L2Residency l2(64 * L2Residency::kLineBytes);
  l2.access(0x0, 256);
  l2.reread(0x0, 16);
  EXPECT_FALSE(l2.reread(0x78, 16));  // 0x78..0x87: the second line was not read
  EXPECT_TRUE(l2.reread(0x78, 16));
}

TEST(Reread, ALineThatLeftTheL2IsReadAfresh) {
  L2Residency l2(2 * L2Residency::kLineBytes);
  for (uintptr_t a : {0x0, 0x80, 0x100}) {
    l2.access(a, 16);
    l2.reread(a, 16);
  }
  l2.access(0x0, 16);  // 0x0 left for 0x100 and came back
  EXPECT_FALSE(l2.reread(0x0, 16));
}

// Mode 13 at 4 x 4, k = 8: 7 of each warp's 16 rows re-read rows warp 0 read (the walk wraps).
double reduce_k8_c4w4_ns(const std::string& rule) {
  return nvtest::calib_probe_value({"platform=h200", "kernel.args.mode=13", "kernel.args.bytes=7168", "kernel.args.inflight=8",
                                    "kernel.args.warps=4", "kernel.args.count=16", "kernel.args.window_kib=16384",
                                    "kernel.args.hot=1", "kernel.blocks=4", "platform.l2.reread_skips_use=" + rule});
}

TEST(Reread, TheWrappedReduceWalkReadsItsReReadRowsFaster) {  // shim.reduce_row.l2.7k.k8.w16m.c4w4_ns 13,180
  EXPECT_NEAR(reduce_k8_c4w4_ns("1"), 13180, 1318);
}

TEST(Reread, WithoutTheRuleTheWrappedWalkReadsAsAnUnwrappedOne) {  // 16,140: every row at one warp's figure
  EXPECT_GT(reduce_k8_c4w4_ns("0"), 1.1 * 13180);
}

}  // namespace
