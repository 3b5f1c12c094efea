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
TEST(NvidiaFlagRows, AcquirePollPaysWhenItSeesTheOtherSmsStore) {  // flag.release_acquire_gpu.one_way_ns 542.5
  EXPECT_NEAR(one_way_ns(3), 542.5, 54.3);
}

// Without the rule (session 23's: only the own atomic's word pays) the acquire ping-pong runs at
// the relaxed one's pace (flag.relaxed_gpu.one_way_ns 254.4; the model about 315 ns).
TEST(NvidiaFlagRows, AcquirePollOfAnotherSmsFlagWithoutTheRule) {
  EXPECT_LT(one_way_ns(3, "platform.mem.acquire_on_change=0"), 542.5 - 200);
}

// System scope keeps the own-word rule (app row litmus_mp_release_acquire): the row is not met,
// the acquire.sys ping-pong runs at the relaxed pace (flag.release_acquire_sys.one_way_ns 832.4;
// flag.relaxed_sys.one_way_ns 254.5, the model about 307 ns).
TEST(NvidiaFlagRows, SystemScopeAcquirePollKeepsTheOwnWordRule) {
  EXPECT_LT(one_way_ns(1), 832.4 / 2);
}

// The poller's own atomic on its flag makes every acquire poll of it pay (the own-word rule): the
// model about 639 ns against the GPU's 530.2 (flag.release_acquire_gpu.own_atomic.one_way_ns): not met.
TEST(NvidiaFlagRows, OwnAtomicMakesEveryAcquirePollPay) {
  EXPECT_GT(one_way_ns(3 + 8), 600);
}
