// Dispatch's receive phase with the TMA engine's closed queue per stretch between CTA barriers
// (tma.engine_mva_segments; docs/hw-accuracy.md, thirty-fourth pass (s28-phases)). The probe
// (calib_probe mode 22, dispatch_phases_probe.cu) times the kernel to the end of phase 2 (send
// loop, counts, signal round, two grid syncs) and of phase 3 (then the receive loop: lane 0 of
// each warp loads a 7184 B message and stores it, nothing else between its copies).
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// 4 CTAs x 4 warps, 128 fresh tokens of 7168 B, to the end of phase `phase`.
double dispatch_ns(int phase, const std::string& segments) {
  return calib_probe_value({"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168",
                            "kernel.args.inflight=" + std::to_string(phase), "kernel.args.warps=4",
                            "kernel.args.count=128", "kernel.args.window_kib=1024", "kernel.args.hot=0",
                            "kernel.blocks=4", "platform.tma.engine_mva_segments=" + segments});
}

}  // namespace

// On the GPU the receive loop is engine-bound: 8 rounds of 4 warps x (7184 B / 92.5 + 7184 B / 45.5
// GB/s) = 7.5 us; H200 (session 27, call C) 7,040 last repetition, 8,050 median; H100 8,300. The
// model's kernel to the end of phase 2 is 15,040 ns either way (one simulation a test: p3 alone
// here); its receive loop with its own time away 7,980 ns (p3 23,020), with the send loop's sums
// kept 5,780 (p3 20,820). The H200's p3: 22,270 last repetition (its send loop is 0.9 x the model's).
// (Phase 2 ended at 16,230 before the host memsets' lines stayed in L2, l2.memset_allocates 1,
// thirty-seventh pass (s31-read): the counters and routing table no longer miss; the loops the same.)
// Phase 2 ends at 14,930 since the TMA engine's wait is paid once a pass (thirty-seventh pass
// (s31-wait): the send loop's load behind its own store meets the queue once); its receive loop
// 7,610 (p3 22,540), with the send loop's sums 5,870 (p3 20,800).
// Phase 2 ends at 14,130 since an unrolled shuffle loop's code issues back to back (thirty-eighth
// pass (s32-round): the send loop's 8 shuffles, ptx::unrolled_shuffles); its receive loop 7,610 (p3
// 21,740), with the send loop's sums 5,880 (p3 20,010): the receive loop as before.
constexpr double kPhase2EndNs = 14130;
TEST(DispatchPhases, ReceiveQueuesWithItsOwnTimeAway) {
  const double p3_ns = dispatch_ns(3, "1");
  EXPECT_GT(p3_ns, kPhase2EndNs + 7500);
  EXPECT_LT(p3_ns, kPhase2EndNs + 8500);
}

TEST(DispatchPhases, ReceiveIsShortWithTheSendLoopsSums) {
  EXPECT_LT(dispatch_ns(3, "0"), kPhase2EndNs + 6500);
}

namespace {

// One warp's send loop and first grid sync (calib_probe mode 22, phase 1), 32 tokens of 7168 B in the heap;
// `inflight` 1 plus the probe's run-time bits (+ 32: top-k at run time).
double one_warp_p1_ns(int inflight) {
  return calib_probe_value({"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168",
                            "kernel.args.inflight=" + std::to_string(inflight), "kernel.args.warps=1",
                            "kernel.args.count=32", "kernel.args.window_kib=1024", "kernel.args.hot=4", "kernel.blocks=1"});
}

}  // namespace

// With a constant top-k the SASS unrolls the loop over the lanes' ranks (8 SHFLs back to back, the compares under
// them: ptx::unrolled_shuffles); with a run-time top-k it is rolled, each compare waiting for its shuffle. Session
// 32's call D4 (H100) reads the rolled form +4,670 ns over the unrolled one at 32 tokens (+143-150 ns a round, in
// every repetition; docs/hw-accuracy.md, thirty-eighth pass (s32-round)). The model's figures (one simulation a
// test): 32,920 unrolled (36,500 before the rule), 35,970 rolled (as before): +3,050; 33,530 / 36,600 (+3,070)
// since the forty-first pass (s35-rows): the send round's next load behind its store's hold booked 44.5 ns after
// the issue, its shifted row streamed as an aligned one's (+19 ns a round).
TEST(DispatchPhases, OneWarpsUnrolledShuffleLoopRunsUnderItsShuffles) {
  EXPECT_NEAR(one_warp_p1_ns(1), 33530, 335);
}

TEST(DispatchPhases, OneWarpsRolledShuffleLoopWaitsForEachShuffle) {
  EXPECT_NEAR(one_warp_p1_ns(33), 36600, 366);
}
