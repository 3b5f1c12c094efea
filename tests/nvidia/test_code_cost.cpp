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

namespace {

// calib_probe mode 28 (tma_code_probe.cu): per round one bulk store of `bytes`, commit,
// wait_group 0, then n iterations of index_code's loop; ns per round.
double store_code_round_ns(int bytes, int n, std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=28", "kernel.args.bytes=" + std::to_string(bytes),
                                   "kernel.args.inflight=1", "kernel.args.warps=1", "kernel.args.count=1024",
                                   "kernel.args.window_kib=262144", "kernel.args.hot=0", "kernel.args.stride=" + std::to_string(n)};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return calib_probe_value(sets);
}

}  // namespace

// The stores' landing time was fitted from probe loops whose own code after each wait is not
// charged (tma_sm.store.*): the round's code right after the wait is inside it
// (sm.code_after_bulk_wait_ns, twentieth pass (s21-code); 43.9 ns, the GPU's 87 stall cycles of
// it, since the thirty-second (s26-bulk)). Without the rule the rows read
// 1.34 / 1.08 (131.0 / 368.7 ns). One run a test (the simulation runs in this process).
TEST(CodeCost, TheRoundsCodeAfterABulkWaitRunsInsideIt1k) {  // tma_store_code.fresh.1k.n0.round_ns 97.76
  EXPECT_NEAR(store_code_round_ns(1024, 0), 97.76, 9.776);
}

TEST(CodeCost, TheRoundsCodeAfterABulkWaitRunsInsideIt16k) {  // tma_store_code.fresh.16k.n0.round_ns 340.2
  EXPECT_NEAR(store_code_round_ns(16384, 0), 340.2, 34.02);
}

TEST(CodeCost, WithoutTheRuleTheRoundPaysItsCodeAfterTheWait) {  // 131.0 at the weak-store window's 50 ns
  EXPECT_NEAR(store_code_round_ns(1024, 0, {"platform.sm.code_after_bulk_wait_ns=0"}), 125.6, 1.0);
}

TEST(CodeCost, OnlyTheCodeRightAfterTheWaitIsInside) {
  // Every iteration of the loop is still charged (the GPU's rows rise 17.7 ns an iteration
  // from n = 0 on): the index loop's SASS (ptx::store_loop_inner_code: 32 cycles an iteration, 7
  // its entry, at sm.store_loop_cycle_ns 0.50505) adds 520.7 ns to the n = 0 round's 337.9 at 32
  // iterations, none of it inside the wait (thirty-seventh pass (s31-store)).
  EXPECT_NEAR(store_code_round_ns(16384, 32), 337.9 + (7 + 32 * 32) * 0.50505, 1.0);
}

TEST(CodeCost, WithoutTheSassClockTheIndexLoopIsTheHostCount) {
  // sm.store_loop_cycle_ns 0: the host build's count of the loop (21.3 ns an iteration, 7
  // instructions and a jump), 43.9 of the round's code inside the wait: 1067.0 - 43.9, as before
  // the loop named its SASS (tma_store_code.fresh.16k.n32.round_ns 904.9: 1.13 so, 0.95 with it).
  EXPECT_NEAR(store_code_round_ns(16384, 32, {"platform.sm.store_loop_cycle_ns=0"}), 1067.0 - 43.9, 1.0);
}

// The round's compare and select run on every path on the GPU (SASS 0x2f0-0x350), inside the
// wait as the rest of the round's code; the host build runs them at n >= 1 only (a 7-instruction
// exit block, 16.7 ns), which the credit covers since s26-bulk. Since s31-store the loop's host
// count is not charged but its SASS's entry and iteration (39 cycles, 19.7 ns): 114.6 ns.
TEST(CodeCost, TheFirstIterationAddsOnlyItself) {  // tma_store_code.fresh.1k.n1.round_ns 114.2
  EXPECT_NEAR(store_code_round_ns(1024, 1), 114.2, 11.42);
}

namespace {

// calib_probe mode 23 (fresh_rows_probe.cu), `inflight` 2: each warp's lanes write 7168 B rows in
// L2 with 16 B st_na, 14 a lane a row, then __syncwarp; ns for all the rows (thread 0 of CTA 0).
double plain_store_rows_ns(int warps, int ctas, int rows, std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=23", "kernel.args.bytes=7168", "kernel.args.inflight=2",
                                   "kernel.args.warps=" + std::to_string(warps), "kernel.args.count=" + std::to_string(rows),
                                   "kernel.args.window_kib=1024", "kernel.args.hot=1", "kernel.blocks=" + std::to_string(ctas)};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return calib_probe_value(sets);
}

}  // namespace

// The loop's code between two of a thread's plain stores is a loop whose iterations do not wait
// for each other: nvcc unrolls it and issues it back to back, sm.code_indep_insn_ns (1.045, row
// code.imad_indep8.w1_ns) an instruction (twenty-second pass (s22-code)). Row
// fresh.plain_store.l2.7168.512r.c4w4_ns 14,770 ns: 14,940 simulated (15,090 at the weak-store
// window's 50 ns, before the thirty-first pass (s25-flag)).
TEST(CodeCost, CodeBetweenPlainStoresIssuesAtTheIndependentRate) {
  EXPECT_NEAR(plain_store_rows_ns(4, 4, 512), 14770, 1477);
}

TEST(CodeCost, AtTheDependentRateThePlainStoreRowIsSlow) {
  // The same code at sm.code_insn_ns (2.387) an instruction: 16,590 ns, 1.12x the row (17,390 at
  // the weak-store window's 50 ns, before the thirty-first pass (s25-flag)); 14,940 at the rule's rate.
  EXPECT_GT(plain_store_rows_ns(4, 4, 512, {"platform.sm.code_indep_insn_ns=2.387"}), 1.10 * 14770);
}
