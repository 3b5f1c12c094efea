// The grid sync's cost by CTA count and dispatch's count read (docs/hw-accuracy.md, thirty-second
// pass (s26-phases)). On the GPU a CTA's poll loop keeps its phase from one grid sync to the next,
// so the last arrival rotates through the CTAs and the others' waits average (c - 1) / c of the
// poll period: rows shim.grid_sync.{c2,c4,c16,c32}_ns 718.3 / 632.0 / 857.3 / 877.6 ns fit
// 480 + P (c - 1) / c with P about 400. The h200 preset sets the phase once
// (mem.poll_phase_once 1); a GPU-scope acquire pays for its own word behind the last atomic only
// (mem.acquire_gpu_last_rmw 1).
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// comm::grid_sync (calib_probe mode 14), 64 syncs: ns per sync.
double grid_sync_ns(int ctas, const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=14", "kernel.args.bytes=16",
                                   "kernel.args.inflight=1", "kernel.args.warps=4", "kernel.args.count=64",
                                   "kernel.args.window_kib=1", "kernel.args.hot=1", "kernel.blocks=" + std::to_string(ctas)};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}

// Dispatch's body at one PE, 4 CTAs x 4 warps, 8 tokens, up to the second grid sync (mode 22, p2).
double dispatch_p2_ns(const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168",
                                   "kernel.args.inflight=2", "kernel.args.warps=4", "kernel.args.count=8",
                                   "kernel.args.window_kib=1024", "kernel.args.hot=0", "kernel.blocks=4"};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}

}  // namespace

// The model's figures in the comments.

TEST(PollPhase, GridSyncAt32CtasWaitsAbout31Of32Periods) {  // shim.grid_sync.c32_ns 877.6 (859.9)
  EXPECT_NEAR(grid_sync_ns(32), 877.6, 87.8);
}

TEST(PollPhase, GridSyncAt16Ctas) {  // shim.grid_sync.c16_ns 857.3 (823.0)
  EXPECT_NEAR(grid_sync_ns(16), 857.3, 85.7);
}

// With the delay on every loop's second poll (session 23's rule) a CTA that misses the flip by a
// few ns pays a period and its delay: 1004 ns at 32 CTAs.
TEST(PollPhase, DelayOnEveryLoopPaysAPeriodAndTheDelay) {
  EXPECT_GT(grid_sync_ns(32, "platform.mem.poll_phase_once=0"), 877.6 * 1.1);
}

// The spread only sets the phases: any spread of about a period gives the same mean (823.0 at
// 391 ns, 824 at 500; since the thirty-ninth pass (s33-sync: mem.acquire_load_ns 115, the poll period
// 286) 886.4 at 286, 883.2 at 391, 879.8 at 500; with mem.acquire_own_word_first_poll 1 (the period 171)
// 869.8 at 171, 886.4 at 286, 878.3 at 500).
TEST(PollPhase, TheMeanWaitDoesNotHangOnTheSpread) {
  EXPECT_NEAR(grid_sync_ns(16, "platform.mem.poll_phase_ns=500"), 869.8, 869.8 * 0.02);
}

// Sm 0's read of the send counter after the grid sync (its slot atomic changed the word two
// atomics before) no longer pays mem.acquire_load_ns: 4,790 ns, 5,084 with the last two words.
// Since the thirty-third pass (s27-flag) the signal round's red.release.sys pays mem.fence_sys_ns and
// its poll nothing: 5,084 and 5,182 (the GPU 4,088; median reading 4,391; H100 4,357-4,549). Since
// the host memsets' lines stay in L2 (l2.memset_allocates 1, thirty-seventh pass (s31-read)): 4,395
// and 4,786. Since the thirty-ninth pass (s33-sync: the acquire 115 ns, the idle release.gpu 265, the
// system fence 516 and its poll's acquire 111) 4,795 and 4,940; with mem.acquire_own_word_first_poll 1
// (the grid sync's later polls pay only on a change) 4,731 and 4,804. With s32-round's unrolled shuffles
// and s32-bulk's in-flight bulk loads (thirty-ninth pass, s33-sweep): 4,560 and 4,731. Since the forty-first
// pass (s35-rows: an unaligned load's bytes streamed as an aligned one's, the store's hold booked 44.5 ns after
// its issue) 4,560 and 4,632: the threshold 4,645 -> 4,596, between them. Since the forty-fourth pass (s38-touch:
// each SM's first plain store to a page waits sm.store_first_touch_ns) 4,620 and 4,731: the threshold 4,675.
TEST(PollPhase, DispatchsCountReadAfterTheGridSyncDoesNotPay) {  // shim.dispatch_phases.fresh.8tok.h7168.p2_ns
  EXPECT_LT(dispatch_p2_ns(), 4675);  // one simulation a test: the two figures apart
}

// With the last two atomics' words at GPU scope too (before the thirty-second pass) the read pays.
TEST(PollPhase, DispatchsCountReadPaysWithTheLastTwoWords) {
  EXPECT_GT(dispatch_p2_ns("platform.mem.acquire_gpu_last_rmw=0"), 4675);
}
