// The flag rows (hw/calib/results/h200-2026-12-05-s24/calib_flags.md) re-simulated by calib_probe
// mode 30 (kernels/nvlink/calib/flag_probe.cu): thread 0 of two CTAs passing a count on two
// flags. An acquire poll that sees the other SM's store pays mem.acquire_load_ns at GPU scope
// (mem.acquire_on_change, docs/hw-accuracy.md, thirtieth pass (s24-flag)).
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// ns one way; `flavour` as calib.cuh's (0 relaxed.sys, 1 release/acquire.sys, 2 relaxed.gpu,
// 3 release/acquire.gpu, 4 volatile), + 8 the poller's atom.add 0 on its own flag first.
double one_way_ns(int flavour, const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=30", "kernel.args.bytes=16",
                                   "kernel.args.inflight=" + std::to_string(flavour), "kernel.args.count=200",
                                   "kernel.args.window_kib=1", "kernel.args.hot=1", "kernel.blocks=2"};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}

}  // namespace

// One run a test (one simulation a process); the model's figures in the comments (200 round trips).
// Since the thirty-first pass (s25-flag) mode 30 runs bench_flags' loop (flag_ping_pong.cuh), whose
// GPU figures are calib_flags.md's (relaxed.gpu 242.0, release_acquire.gpu 430.1, .sys 754.4,
// own atomic 230.0 / 443.7 / 762.9); the weak-store window is 10 ns.

// A relaxed flag's one way: the poller's code + the store's landing (L2 + the window) + half a poll
// period (the L2 round trip and the loop) + the poll's return: about 255 ns against the GPU's 242.
TEST(NvidiaFlagRows, RelaxedOneWayIsTheL2PathAndHalfAPollPeriod) {  // flag.relaxed_gpu.one_way_ns
  EXPECT_NEAR(one_way_ns(2), 242.0, 24.2);
}

// Since the thirty-ninth pass (s33-sync) against the row's calibration reference, mode 30's loop on the H200
// (hw/calib/results/h200-2026-12-05-s27-A/sync_rows.md 611.4, its median repetition on the H200 passes 605.5:
// hw/calib/results/h200-2026-12-06-s33-syncref/sync_refs.md), not bench_flags' 430.1: the idle release.gpu
// pays its MEMBAR (mem.idle_release_gpu_ns 265) and the poll its acquire (115): 638.3 (1.05); 477 before.
TEST(NvidiaFlagRows, AcquirePollPaysWhenItSeesTheOtherSmsStore) {  // flag.release_acquire_gpu.one_way_ns 605.5
  EXPECT_NEAR(one_way_ns(3), 605.5, 0.15 * 605.5);
}

// Without the rule (session 23's: only the own atomic's word pays) the acquire ping-pong runs at
// the relaxed one's pace and the release's (522.2), short of the GPU's row.
TEST(NvidiaFlagRows, AcquirePollOfAnotherSmsFlagWithoutTheRule) {
  EXPECT_LT(one_way_ns(3, "platform.mem.acquire_on_change=0"), 0.9 * 605.5);
}

// System scope: an idle release pays mem.fence_sys_ns (mem.idle_release_pays_fence 2), the acquire.sys
// poll of another's store nothing: about 842 ns against mode 30's 808.0 (flag.release_acquire_sys.one_way_ns;
// bench_flags 754.4). Before the thirty-third pass (s27-flag) the idle release was free: 257 ns (0.32).
TEST(NvidiaFlagRows, SystemScopeIdleReleasePaysItsFence) {
  EXPECT_NEAR(one_way_ns(1), 808.0, 0.1 * 808.0);
}
// The cost sits on the release store, as on the GPU (hw/diff/results/h100-2026-12-05-s27-A, hw_s25f:
// st.release.sys + relaxed poll 1034 ns, relaxed store + ld.acquire.sys 334, relaxed 256.8).
TEST(NvidiaFlagRows, SystemScopeCostIsTheReleaseStore) {
  EXPECT_GT(one_way_ns(1 + 32), 242.0 + 500);
}
// Since the thirty-ninth pass (s33-sync, mem.acquire_on_change 2) the ld.acquire.sys poll that sees the
// other's store pays mem.acquire_sys_load_ns (111) as the .gpu one pays its own: 365.9 ns against
// session 27's call A on the H200 (relaxed store + ld.acquire.sys 316.7 at the median repetition, relaxed
// 239.7: the poll 77).
TEST(NvidiaFlagRows, SystemScopeAcquirePollOfAnothersStorePaysItsAcquire) {
  EXPECT_GT(one_way_ns(1 + 16), 242.0 + 60);
}

// The poller's own atomic on its flag made every acquire poll of it pay (the own-word rule): the model
// 587 ns, 690.7 with the thirty-ninth pass's figures, against the GPU's 603.6 (mode 30, median repetition;
// its twin without the atomic 605.5). Since then (mem.acquire_own_word_first_poll 1) only the loop's first
// poll pays for the own word: 636.0, as without the atomic (636.3).
TEST(NvidiaFlagRows, OwnAtomicCostsTheAcquirePingPongNothing) {  // flag.release_acquire_gpu.own_atomic.one_way_ns
  EXPECT_NEAR(one_way_ns(3 + 8), 603.6, 0.1 * 603.6);
}
TEST(NvidiaFlagRows, OwnAtomicMakesEveryAcquirePollPayWithoutTheFirstPollRule) {
  EXPECT_GT(one_way_ns(3 + 8, "platform.mem.acquire_own_word_first_poll=0"), 1.1 * 603.6);
}

// Mode 30's + 16 / + 32 (the store or the load relaxed, hw/diff/s25f_set.json): on the H200 (session 27's
// call A, hw/diff/results/h200-2026-12-05-s27-A, median repetitions) the relaxed store + ld.acquire.gpu poll
// 315.7 ns, st.release.gpu + relaxed poll 487.1 (relaxed 239.7): the poll ~78, the idle release ~222 (repetition
// by repetition, docs/hw-accuracy.md thirty-sixth pass (s30-sync)). Since the thirty-ninth pass (s33-sync) the model charges both:
// 373.2 and 523.0 (before: the poll 220 and the release nothing, 477 / 257).
TEST(NvidiaFlagRows, GpuScopeAcquirePollOfAnothersStorePays) {
  EXPECT_GT(one_way_ns(3 + 16), 242.0 + 60);
}
TEST(NvidiaFlagRows, IdleGpuReleaseStorePaysItsMembar) {
  EXPECT_GT(one_way_ns(3 + 32), 242.0 + 200);
}

// The poller's atom.add 0 on its flag before each ld.relaxed.gpu wait: on the H200 and the H100 it costs the relaxed
// ping-pong nothing in one of two address groups set by the flag's window (223-256 ns, the plain flag's) and +115-139
// in the other (357-393), where the atomic on that word itself takes ~90 ns longer (session 36's call D1, H100); the
// row's reference, its median repetition on the H200 passes, is the high group's 361.9
// (hw/calib/results/h200-2026-12-06-s33-syncref/sync_refs.md). Since the forty-second pass (s36-flag) the poll that
// sees the other SM's store samples no sooner than mem.own_atomic_poll_floor_ns (605) after the own atomic's issue:
// 361.7 (257.8 without it, 0.712). A floor, not a cost: behind a release store's longer one way the atomic costs
// nothing (D1: 592 ns with and without it; the model 522.6 / 523.1), with an acquire.gpu poll it shows (D1 +112 in
// the high group over 320; the model 416.8 against 371.5).
TEST(NvidiaFlagRows, OwnAtomicFloorsThePollThatSeesTheStore) {  // flag.relaxed_gpu.own_atomic.one_way_ns
  EXPECT_NEAR(one_way_ns(2 + 8), 361.9, 0.1 * 361.9);
}
TEST(NvidiaFlagRows, OwnAtomicCostsTheRelaxedPingPongNothingWithoutTheFloor) {
  EXPECT_LT(one_way_ns(2 + 8, "platform.mem.own_atomic_poll_floor_ns=0"), 0.9 * 361.9);
}
TEST(NvidiaFlagRows, OwnAtomicFloorHidesBehindAReleaseStore) {  // D1: 592 ns with and without the atomic
  EXPECT_LT(one_way_ns(3 + 32 + 8), 523.1 + 5);
}
TEST(NvidiaFlagRows, OwnAtomicFloorShowsBehindAnAcquirePoll) {  // D1: 420 in the high group against 320 without it
  EXPECT_GT(one_way_ns(3 + 16 + 8), 371.5 + 30);
}
