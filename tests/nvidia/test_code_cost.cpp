// The kernels' own code between shim calls (models/nvidia/code_cost.h): basic blocks found by
// -fsanitize-coverage=trace-pc, weighed by their instructions (tools/code-weights/as) and charged
// per warp on its SM. calib_probe mode 10 runs row code.loop_iter's loop
// (kernels/nvlink/calib/code_probe.cu), one block of 5 instructions per iteration, and must
// reproduce the H200's row (docs/hw-calibration.md) within 10%; the h800 preset charges nothing.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// ns per loop iteration per warp, as the probe reports it.
double loop_ns(int warps, int count, const std::string& platform = "h200", std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {"platform=" + platform, "kernel.args.mode=10", "kernel.args.warps=" + std::to_string(warps),
                                   "kernel.args.count=" + std::to_string(count), "kernel.args.window_kib=1", "kernel.args.hot=0"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return calib_probe_value(sets);
}

}  // namespace

TEST(CodeCost, OneWarpPaysTheRowsLatencyPerIteration) {  // code.loop_iter.w1_ns 14.14
  // Within 0.1 ns, not 10%: each iteration is one block of 4 instructions at sm.code_insn_ns and
  // a jump at sm.code_jump_ns (4 x 2.387 + 4.593, the nineteenth pass's fit; the loop's set-up and
  // the closing barrier add under 0.05 ns per iteration over 2000).
  EXPECT_NEAR(loop_ns(1, 2000), 14.14, 0.1);
}

TEST(CodeCost, AJumpPaysItsOwnFigure) {
  // The loop's block is 4 instructions and its jump (tools/code-weights/as counts jumps apart).
  EXPECT_NEAR(loop_ns(1, 2000, "h200", {"platform.sm.code_jump_ns=0"}), 4 * 2.387, 0.1);
}

TEST(CodeCost, OneFigureForEveryInstructionAlsoGivesTheRow) {  // code.loop_iter.w1_ns 14.14
  // The figure before the jump fit (14.14 / 5 for every instruction): the row alone cannot tell them apart.
  EXPECT_NEAR(loop_ns(1, 2000, "h200", {"platform.sm.code_insn_ns=2.828", "platform.sm.code_jump_ns=2.828"}), 14.14, 0.1);
}

TEST(CodeCost, ThirtyTwoWarpsShareTheSmsIssueSlots) {  // code.loop_iter.w32_ns 24.13
  EXPECT_NEAR(loop_ns(32, 500), 24.13, 2.4);
}

TEST(CodeCost, ThePresetWithoutTheRowChargesNothing) {
  EXPECT_LT(loop_ns(1, 2000, "h800"), 0.5);
}

TEST(CodeCost, ARunTimeDivisionCostsTheGpusSequence) {
  // calib_probe mode 22 + 64 (ninth pass): dispatch's body at 512 tokens with the experts-per-rank
  // division by a run-time value, one per token on each warp's path. The H200 takes 3.11 us more
  // than without it (rows shim.dispatch_phases.{rtexperts.,}l2data.512tok.h7168.p3_ns); sm.code_div_ns
  // is fitted to that difference. Since the sixteenth pass (a) (bulk stores let their thread go on)
  // the body itself is within 10% of the row, 78.94 us (76.52 simulated; 90.14 before).
  const double body_ns = calib_probe_value({"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168",
                                            "kernel.args.count=512", "kernel.args.warps=4", "kernel.blocks=4",
                                            "kernel.args.window_kib=1024", "kernel.args.hot=3", "kernel.args.inflight=67"});
  EXPECT_NEAR(body_ns, 78940, 7894);
}
