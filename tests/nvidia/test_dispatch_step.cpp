// Dispatch's send step with its per-token work (calib_probe mode 29, dispatch_step_probe.cu)
// against the H200's rows shim.dispatch_step.* (docs/hw-calibration.md, sixteenth pass (b)):
// other warps' bulk stores delay a warp's bulk load by as much as on the GPU, whatever work the
// warp does between its load and its store (the GPU does not run that work under the TMA
// engine's time: 4 warps on each of 4 SMs add 450-480 ns to one warp's round, with and without
// it). Each test one simulation, within 10% of the row's second run.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// ns per step and warp: 7168 B loaded from L2, 7184 B stored, `stride` the per-token work's parts.
double dispatch_step_ns(int ctas, int warps, int stride) {
  return calib_probe_value({"platform=h200", "kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.inflight=1",
                            "kernel.args.count=64", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                            "kernel.args.warps=" + std::to_string(warps), "kernel.blocks=" + std::to_string(ctas),
                            "kernel.args.stride=" + std::to_string(stride)});
}

}  // namespace

TEST(ShimSteps, DispatchStepWithItsSlotAtomicOneWarp) {  // shim.dispatch_step.l2.7168.c1w1.s2_ns 780.8 (model 722.8)
  EXPECT_NEAR(dispatch_step_ns(1, 1, 2), 780.8, 78.1);
}

TEST(ShimSteps, DispatchStepWithItsSlotAtomicQueuesBehindOtherWarpsStores) {  // ...c4w4.s2_ns 1227 (model 1186)
  EXPECT_NEAR(dispatch_step_ns(4, 4, 2), 1227, 122.7);
}

TEST(ShimSteps, DispatchStepWithArithmeticQueuesBehindOtherWarpsStores) {  // ...c4w4.code32_ns 1754 (model 1682)
  // 32 iterations of index code between the load and the store: the GPU adds the same 418 ns
  // to one warp's round (1336) as without the code; the engine does not hide it.
  EXPECT_NEAR(dispatch_step_ns(4, 4, 32 << 4), 1754, 175.4);
}
