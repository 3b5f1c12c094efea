// The kernels' own steps with the kernels' own calls (kernels/nvlink/calib/shim_probe.cu,
// calib_probe modes 11-15) re-simulate the H200's shim.* rows they are fitted from
// (docs/hw-calibration.md, "The kernels' own steps"): a load's use by the code after it
// (sm.code_uses_loads, sm.load_use_ns) and bulk loads queued behind a streaming bulk store
// (tma.store_holds_engine), and the later start of a bulk load after its thread waited out its
// stores (tma.load_after_store_ns). The h800 preset keeps none of them.
#include <algorithm>

#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

// ns per step and warp, as the probe reports it.
double step_ns(const std::vector<std::string>& sets, const std::string& platform = "h200") {
  std::vector<std::string> all = {"platform=" + platform, "kernel.args.count=64", "kernel.args.window_kib=16384",
                                  "kernel.args.hot=1", "kernel.args.inflight=1", "kernel.args.warps=1", "kernel.blocks=1"};
  all.insert(all.end(), sets.begin(), sets.end());
  return calib_probe_value(all);
}

double reduce_ns(int bytes, const std::string& platform = "h200") {
  return step_ns({"kernel.args.mode=13", "kernel.args.bytes=" + std::to_string(bytes)}, platform);
}

double dispatch_send_ns(int bytes) { return step_ns({"kernel.args.mode=12", "kernel.args.bytes=" + std::to_string(bytes)}); }

}  // namespace

// One simulation per test process: each test runs one probe against its row.
TEST(ShimSteps, CombinesReduceRow1k) {  // shim.reduce_row.l2.1k.k1.c1w1_ns 604.3
  EXPECT_NEAR(reduce_ns(1024), 604.3, 60.4);
}

TEST(ShimSteps, CombinesReduceRow7k) {  // shim.reduce_row.l2.7k.k1.c1w1_ns 3993
  EXPECT_NEAR(reduce_ns(7168), 3993, 399);
}

TEST(ShimSteps, CodeAfterALoadWaitsForItOnlyOnTheH200) {
  // 14 steps of one load, its use and a store: without the rule the store alone waits for the
  // load and the code runs under it (main's model on h200: 2675 ns against the row's 3993).
  EXPECT_LT(reduce_ns(7168, "h800"), 0.8 * 3993);
}

TEST(ShimSteps, DispatchsSendStep1k) {  // shim.copy_round_warp.l2.1k.c1w1_ns 347.7
  EXPECT_NEAR(dispatch_send_ns(1024), 347.7, 34.8);
}

TEST(ShimSteps, DispatchsSendStep7kWaitsForTheLastStoresBytes) {  // shim.copy_round_warp.l2.7k.c1w1_ns 448.9
  // The next load queues behind the last store's 7 KiB, held on the engine from the store's issue
  // (434.8 ns, 0.97 of the row). Booked tma.store_gap_ns (87 ns) after the issue, as before the
  // nineteenth pass, the load reached the engine ahead of the hold: 0.82 of the row.
  EXPECT_NEAR(dispatch_send_ns(7184), 448.9, 44.9);
}

TEST(ShimSteps, CombinesSendStep7kLoadsLaterAfterItsStoresWait) {  // shim.copy_round.l2.7k.c1w1_ns 514.8
  // tma.load_after_store_ns: the load after the full wait for the last store starts later (sixth
  // pass; 122.8 ns in the fifteenth, 54 in the sixteenth (a) with the arm paid after the copy).
  EXPECT_NEAR(step_ns({"kernel.args.mode=11", "kernel.args.bytes=7168"}), 514.8, 51.5);
}

// What the model gives without it: 479.2 since the sixteenth pass (a) (the arm paid after the
// copy; 404.8 before, 424.0 with tma.store_ns 79), so the delay is 54 ns; 473.6 with the
// nineteenth pass's jump fit (the loop's code); 471.0 with the twentieth's
// sm.code_after_bulk_wait_ns (the code right after the step's wait_group runs inside it).
TEST(ShimSteps, CombinesSendStep7kWithoutTheRule) {
  EXPECT_NEAR(step_ns({"kernel.args.mode=11", "kernel.args.bytes=7168", "platform.tma.load_after_store_ns=0",
                       "platform.tma.load_after_store_issue_ns=0"}),
              471.0, 1.0);
}

// Thirty-second pass (s26-copy): the same step at 1 KiB takes the GPU as long as at 4 KiB (rows
// shim.copy_round.l2.{1k,4k}.c1w1_ns 481.4 / 481.5): the load after the store's wait starts no
// sooner than tma.load_after_store_issue_ns (228 ns) after the store's issue.
TEST(ShimSteps, CombinesSendStep1kLoadsNoSoonerThanTheFloorAfterItsStore) {  // shim.copy_round.l2.1k.c1w1_ns 481.4
  EXPECT_NEAR(step_ns({"kernel.args.mode=11", "kernel.args.bytes=1024"}), 481.4, 48.1);
}

// Without the floor the 1 KiB round is the 7 KiB one less its bytes' time (397.2 ns, 0.83 of the row).
TEST(ShimSteps, CombinesSendStep1kWithoutTheFloor) {
  EXPECT_NEAR(step_ns({"kernel.args.mode=11", "kernel.args.bytes=1024", "platform.tma.load_after_store_issue_ns=0"}),
              397.2, 1.0);
}

// The floor does not reach a 7 KiB round: its store lands later than the floor; the round is
// 524.2 ns with it as without it (row shim.copy_round.l2.7168.c1w1_ns 509.6).
TEST(ShimSteps, CombinesSendStep7kIsNotHeldByTheFloor) {
  EXPECT_NEAR(step_ns({"kernel.args.mode=11", "kernel.args.bytes=7168"}), 524.2, 0.5);
}

// Seventh pass: bulk copies that start or end inside a 128 B line (dispatch's 7184 B messages)
// go slower, stores at tma.store_unaligned_gbytes_per_s, loads through the engine at
// tma.load_unaligned_gbytes_per_s (rows shim.{store,load}_round_warp.l2.{7168,7184}.*).
TEST(ShimSteps, UnalignedStoresWriteAtTheirOwnRate) {  // shim.store_round_warp.l2.7184.c1w4_ns 631.2
  EXPECT_NEAR(step_ns({"kernel.args.mode=20", "kernel.args.bytes=7184", "kernel.args.warps=4"}), 631.2, 63.1);
}

TEST(ShimSteps, AlignedStoresKeepTheSmWriteRate) {  // shim.store_round_warp.l2.7168.c1w4_ns 458.5
  EXPECT_NEAR(step_ns({"kernel.args.mode=20", "kernel.args.bytes=7168", "kernel.args.warps=4"}), 458.5, 45.9);
}

TEST(ShimSteps, UnalignedLoadsTakeTheEngineLonger) {  // shim.load_round_warp.l2.7184.c1w8_ns 621.2 (two readings)
  EXPECT_NEAR(step_ns({"kernel.args.mode=19", "kernel.args.bytes=7184", "kernel.args.warps=8"}), 621.2, 62.1);
}

// Forty-first pass (s35-rows): an unaligned bulk load holds the engine at tma.load_unaligned_gbytes_per_s,
// but its bytes stream as an aligned load's, tma.load_unaligned_extra_ns (10.9) later
// (tma.load_unaligned_streams_aligned): one warp's 7184 B load round is 10.9 ns over its 7168 B one on the
// H200 (rows shim.load_round_warp.l2.{7184,7168}.c1w1_ns 373.7 / 362.8), 13.2 on the H100 (session 34's D2).
TEST(ShimSteps, OneWarpsUnalignedLoadStreamsAsAnAlignedOne) {  // the model: 351.2 at 7168 B; 394.1 with the engine's rate
  EXPECT_NEAR(step_ns({"kernel.args.mode=19", "kernel.args.bytes=7184"}), 362.2, 0.5);
}

TEST(ShimSteps, OneWarpsUnalignedLoadAtTheEnginesRateWithoutTheRule) {  // the forty-first pass's base: 394.1
  EXPECT_NEAR(step_ns({"kernel.args.mode=19", "kernel.args.bytes=7184", "platform.tma.load_unaligned_streams_aligned=0"}),
              394.1, 0.5);
}

// Four warps of one SM queue on the engine from the shorter one-warp round: 458.7 ns (1.103) at the engine's
// streaming rate, 433.1 with the rule (shim.load_round_warp.l2.7184.c1w4_ns 415.8, its first repetition on
// the nine H200 passes, climb_refs.md).
TEST(ShimSteps, FourWarpsUnalignedLoadRound) { EXPECT_NEAR(step_ns({"kernel.args.mode=19", "kernel.args.bytes=7184", "kernel.args.warps=4"}), 415.8, 41.6); }

// Dispatch's send step at 7168 B, one warp: its next load waits for the store's hold, booked
// tma.store_hold_after_issue_ns (44.5) after the issue (434.1 ns; 386.9 with the hold from the issue).
TEST(ShimSteps, DispatchsSendStep7168WaitsForTheHoldBookedAfterTheIssue) {  // shim.copy_round_warp.l2.7168.c1w1_ns 445.3
  EXPECT_NEAR(dispatch_send_ns(7168), 445.3, 44.5);
}

TEST(ShimSteps, DispatchsSendStepWithEightWarps) {  // shim.copy_round_warp.l2.7184.c1w8_ns 1862 (main's model: 1212)
  EXPECT_NEAR(step_ns({"kernel.args.mode=12", "kernel.args.bytes=7184", "kernel.args.warps=8"}), 1862, 186);
}

TEST(ShimSteps, UnalignedCopiesAsBeforeOnTheH800) {  // main's model gives 916.4 ns (both rates off on h800)
  EXPECT_NEAR(step_ns({"kernel.args.mode=12", "kernel.args.bytes=7184", "kernel.args.warps=8"}, "h800"), 916.4, 1.0);
}

TEST(ShimSteps, UnalignedStoresWithoutTheRate) {  // the h200 with the store rate off: main's model, 457.9
  EXPECT_NEAR(step_ns({"kernel.args.mode=20", "kernel.args.bytes=7184", "kernel.args.warps=4",
                       "platform.tma.store_unaligned_gbytes_per_s=0"}), 457.9, 1.0);
}

// Thirty-first pass (s25-store): one warp's 7184 B messages back to back (message k at k x 7184),
// each store starting where the warp's last one, still in flight, ended: their shared line is
// written whole, so the stores go at the aligned rate (the model gave 160.4 ns before, 1.35x).
TEST(ShimSteps, OneWarpsBackToBackUnalignedStoresAtTheAlignedRate) {  // shim.store_round_warp.l2.7184.c1w1_ns 118.5
  EXPECT_NEAR(step_ns({"kernel.args.mode=20", "kernel.args.bytes=7184"}), 118.5, 11.9);
}

TEST(ShimSteps, OneWarpsAlignedStoresUnchanged) {  // shim.store_round_warp.l2.7168.c1w1_ns 117.5; the model 116.2 before
  EXPECT_NEAR(step_ns({"kernel.args.mode=20", "kernel.args.bytes=7168"}), 116.2, 0.5);
}

// Twentieth pass (s21-route): a row bulk-loaded from whole lines to 16 B into a line of shared
// memory (dispatch's header before it) takes the engine as an unaligned one
// (tma.load_shifted_unaligned): mode 29's routing probe, bare round, four warps of one SM.
namespace {
double route_bare_c1w4_ns(const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {"kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.warps=4",
                                   "kernel.args.stride=65536"};
  sets.insert(sets.end(), more.begin(), more.end());
  return step_ns(sets);
}
}  // namespace

TEST(ShimSteps, RowsLandingOffTheirLinesTakeTheEngineLonger) {  // shim.dispatch_route.l2.7168.c1w4.none_ns 952.7
  EXPECT_NEAR(route_bare_c1w4_ns(), 952.7, 95.3);  // 967.0 simulated (925.0 on the FIFO engine, before s26-mva)
}

TEST(ShimSteps, RowsLandingOffTheirLinesWithoutTheRule) {  // the model without it: 811 (0.85 of the row)
  // 793.2 while bulk copies booked the TMA engine at the thread's run-ahead time (s22-bulk); 788.2
  // on the FIFO engine, whose in-step warps never idle it (before tma.engine_mva, s26-mva); 823.0
  // until the code count ended a block at a loop's back edge (the loop's exit counted once, not in
  // every iteration: thirty-fifth pass (s29-adopt); the same 1.8 ns with sm.load_use_ns 0); 821.2
  // until the engine's wait was paid once a pass (thirty-seventh pass (s31-wait)); 811 until the store's hold
  // was booked 44.5 ns after its issue (forty-first pass (s35-rows)); 828.2 until the SM's load cap
  // tma.load_gbytes_per_s went 189 -> 215 (forty-second pass (s36-tma)).
  EXPECT_NEAR(route_bare_c1w4_ns({"platform.tma.load_shifted_unaligned=0"}), 814.7, 1.0);
}

// One warp's bare round, where the load's engine time is off the path: 467.8 ns (0.87) with the row's bytes at
// tma.copy_gbytes_per_s alone; 515.7 with them streamed at the engine's rate (twentieth pass (s21-route));
// 515.4 since the forty-first pass (s35-rows), streamed as an aligned row's 10.9 ns later, the next load behind
// the store's hold booked 44.5 ns after its issue.
TEST(ShimSteps, AnUnalignedRowAloneOnTheEngine) {  // shim.dispatch_route.l2.7168.c1w1.none_ns 540.6
  EXPECT_NEAR(step_ns({"kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.stride=65536"}), 540.6, 54.1);
}

TEST(ShimSteps, DispatchsBodyAtOnePe) {  // shim.dispatch_phases.128tok.h7168.p3_ns 20750 (three readings 20.68-21.57 us)
  // calib_probe mode 22: intranode_dispatch's whole body in dispatch_1pe's shape, launch left out
  // (seventh pass, second call: 23.68 us simulated, 1.14).
  EXPECT_NEAR(calib_probe_value({"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168", "kernel.args.count=128",
                                 "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=1024",
                                 "kernel.args.hot=1", "kernel.args.inflight=3"}),
              20750, 3112);
}

TEST(ShimSteps, DispatchsSetUpPaysTheMbarrierInitFence) {  // shim.dispatch_phases.fresh.128tok.h7168.p0setup_ns 116.2
  // From the kernel's entry to after its opening __syncthreads: lane 0 of each warp inits its
  // mbarrier and runs fence.mbarrier_init.release.cluster (sm.mbar_init_fence_ns; 46.5 ns
  // without it, 0.40 of the row).
  EXPECT_NEAR(calib_probe_value({"platform=h200", "kernel.args.mode=22", "kernel.args.bytes=7168", "kernel.args.count=128",
                                 "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=1024",
                                 "kernel.args.hot=0", "kernel.args.inflight=4"}),
              116.2, 11.6);
}

namespace {

// calib_probe mode 21 (pull's step per token, all its parts) in pull_1pe's shape, 4 CTAs x 4 warps;
// `variant` + 8: through SymBuffer::map with a run-time source, + 16: pull's run-time divisions.
double pull_step_ns(int variant, const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=21", "kernel.args.bytes=7168", "kernel.args.count=64",
                                   "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                                   "kernel.args.inflight=" + std::to_string(7 + variant)};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}

}  // namespace

// shim.pull_step.l2.7k.c4w4.rt_ns (tenth pass): 1508 / 1506 ns on the GPU, 145 ns over the step
// without the run-time divisions (full_ns 1359 / 1366); the model charges its two divisions
// sm.code_div_ns each, fitted to dispatch's (1415 ns; without the rule 1249). Those readings are a
// cudaMalloc window's last repetition, climbed to the cold figure; the row's reference since the
// thirty-fifth pass (s29-heap) is its window in the symmetric heap, flat over the run: 1209 ns
// (H200 call D1, session 29; hw/calib/results/h200-2026-12-05-s29-D1/heap_rows.md). The model reads
// 1336 (1399 before a word's load stopped paying sm.load_use_ns, thirty-fifth pass (s29-adopt)).
// 1209 was that reading's last repetition, a draw of the row's two levels (the slot counter's memory:
// thirty-seventh pass (s31-pull)); the pin is the median repetition since the thirty-seventh pass
// (s31-adopt): reps 1216 1174 1154 1141 1157 1215 1154 1222 1239 1151 1209, median 1174
// (`hw/diff/heap_reps.py` of hw_s29heap.tgz); the width is as before, 151 ns. The model reads 1171 with
// l2.memset_allocates 1 (the routing table in L2 after its memset), 1344 without.
TEST(ShimSteps, PullsStepWithItsRunTimeDivisions) { EXPECT_NEAR(pull_step_ns(16), 1174, 151); }

// shim.pull_step.l2.7k.c4w4.mapped_ns: 1381 / 1357 ns, as full_ns: a rank's offset read from the
// kernel's parameters by a register index costs the GPU next to nothing, the model neither (1250).
// Since the weak-store window is 10 ns (thirty-first pass (s25-flag)) the model reads 1221 (0.89).
// Those readings are a cudaMalloc window's last repetition; the row's reference since the
// thirty-fifth pass (s29-heap) is its window in the symmetric heap: 1158 ns (H200 call D1, session
// 29, heap_rows.md). The model reads 1172 (1247 before a word's load stopped paying
// sm.load_use_ns, thirty-fifth pass (s29-adopt)). That heap run reads at two levels by the
// repetition, 1009-1047 and 1119-1158 (the probe's slot word is cudaMalloc'ed anew each repetition;
// a freed window, the word at one address, reads one level: session 31's call D1, thirty-seventh
// pass (s31-read)), and 1158 is its last, high draw: the pin is the run's median repetition, 1047.
// With l2.memset_allocates 1 (the routing table in L2 after its memset) the model reads 1009 (1180
// with 0, main 52e9422: the pin and the rule go together).
TEST(ShimSteps, PullsStepThroughSymBufferMap) { EXPECT_NEAR(pull_step_ns(8), 1047, 0.12 * 1047); }

// shim.pull_step.l2.7k.c4w4.rtmapped.8steps_ns (mode 21 + 24, 8 steps a warp): 1223 ns, the median of the
// nine H200 passes' first repetitions (s34-route's rule, climb_refs.md); the 64-step row reads 1230 in the
// heap, so the GPU's step is flat in steps. The model's warps start in step, and with each plain store
// behind every byte booked on the SM's write path the two source words of each warp waited behind the
// other warps' 7 KiB bulk stores until the warps fell apart: 1429 at 8 steps, 1262 at 64. With
// sm.plain_store_own_turn (a plain store among the plain stores only) 1257 and 1195 (docs/hw-accuracy.md,
// forty-first pass (s35-pull)). One simulation a test.
namespace {
double pull_8steps_ns(const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=21", "kernel.args.bytes=7168", "kernel.args.count=8",
                                   "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                                   "kernel.args.inflight=31"};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}
}  // namespace
TEST(ShimSteps, PullsFirstStepsWordsTakeTheirOwnTurnOnTheWritePath) { EXPECT_NEAR(pull_8steps_ns(), 1223, 0.1 * 1223); }
TEST(ShimSteps, PullsFirstStepsWordsBehindTheBulkStoresWithoutTheRule) {
  EXPECT_GT(pull_8steps_ns("platform.sm.plain_store_own_turn=0"), 1.1 * 1223);
}

// shim.pull_step.l2.7k.c4w4.rtmapped.slots_ns (eleventh pass, mode 21 + 56): pull's step as the
// application runs it, each row stored to the slot its atomicAdd returned, in memory never
// written: 1425 / 1428 ns and 1550 / 1547 ns on the GPU (two calls), 1488 on average; the model
// gives 1404 with no new rule (the slot order and the atomic's address dependence cost it nothing).
// Those readings are a cudaMalloc window's last repetition; the row's reference since the
// thirty-fifth pass (s29-heap) is its window in the symmetric heap: 1232 ns (H200 call D1, session
// 29, heap_rows.md). The model reads 1339 (1.087; 1404 before the thirty-fifth pass (s29-adopt)).
// 1232 was that reading's last repetition, a high draw of the row's two levels (thirty-seventh pass
// (s31-pull)); the pin is the median repetition since the thirty-seventh pass (s31-adopt): reps 1238
// 1180 1162 1176 1171 1236 1177 1237 1257 1160 1232, median 1180; the width is as before, 10%. The
// model reads 1173 with l2.memset_allocates 1, 1347 without.
TEST(ShimSteps, PullsStepIntoTheSlotsItsAtomicReturns) { EXPECT_NEAR(pull_step_ns(56), 1180, 0.1 * 1180); }
// The same at a 20 ns quantum: 1,339 ns as at 1 us (1,445 with the weak-store window's 50 ns before
// the thirty-first pass (s25-flag); main before twentieth pass (s21-quant), stores and atomics booked
// at local time: 1,423 at 1 us, 1,493 at 20 ns; 1,390, then 1,401 at both, until a word's load
// stopped paying sm.load_use_ns: thirty-fifth pass (s29-adopt)); 1,173 at both since the routing
// table's memset leaves it in L2 (l2.memset_allocates 1, thirty-seventh pass (s31-read)); 1,239 since
// the TMA engine's wait is paid once a pass (thirty-seventh pass (s31-wait)); 1,195 at both since a plain
// store takes its turn among the SM's plain stores (sm.plain_store_own_turn, forty-first pass (s35-pull)); 1,194
// since a bulk store's hold is booked 44.5 ns after its issue (forty-first pass (s35-rows)).
TEST(ShimSteps, PullStepDoesNotHangOnTheQuantum) {
  EXPECT_NEAR(pull_step_ns(56, "platform.sim.quantum_ns=20"), 1194, 0.01 * 1194);
}

// shim.pull_phases.heap.128tok.h7168 (twelfth pass, calib_probe mode 26): pull_dispatch's body at one
// PE in pull_1pe's shape, timed by clock64 from each warp's entry to its last barrier's end: 15.26 /
// 15.47 us on the GPU (the launch's events 25.6 / 27.7); the model gives 16.18 (events 23.28).
TEST(ShimSteps, PullsBodyAtOnePe) {
  EXPECT_NEAR(calib_probe_value({"platform=h200", "kernel.args.mode=26", "kernel.args.bytes=7168", "kernel.args.count=128",
                                 "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=1024",
                                 "kernel.args.hot=4", "kernel.args.inflight=2"}),
              15365, 2305);
}

// gpu.launch_start_us (fourteenth pass): mode 26's launch held until the host's launch call returned
// (SYMSIM_HW_HOLD_LAUNCH), so its events hold the GPU's launch and pull's body only: events less body
// 2.9-3.2 us on the GPU over 18 readings (median 3.0); the model's launch in the same row.
TEST(ShimSteps, LaunchAroundPullsBodyIsTheHeldGpuLaunch) {
  const auto out = run("calib_probe", {"platform=h200", "kernel.args.mode=26", "kernel.args.bytes=7168",
                                       "kernel.args.count=8", "kernel.args.warps=4", "kernel.blocks=4",
                                       "kernel.args.window_kib=1024", "kernel.args.hot=4", "kernel.args.inflight=2"});
  expect_pass(out);
  double kernel_us = 0, body_ns = 0;
  for (const auto& k : out.result["stats"]["kernels"]) kernel_us = std::max(kernel_us, k["max_us"].get<double>());
  for (const auto& c : out.result["checks"]) {
    const std::string d = c["detail"];
    if (d.rfind("value=", 0) == 0) body_ns = std::stod(d.substr(6));
  }
  ASSERT_GT(body_ns, 0);
  EXPECT_NEAR(kernel_us - body_ns / 1000, 3.0, 0.3);
}

namespace {

// calib_probe mode 23 (eighth pass): 512 rows of 7168 B written or read once by 4 CTAs x 4 warps.
std::vector<std::string> fresh_rows_sets(int op, int hot) {
  return {"platform=h200", "kernel.args.mode=23", "kernel.args.bytes=7168", "kernel.args.count=512",
          "kernel.args.warps=4", "kernel.blocks=4", "kernel.args.window_kib=1024",
          "kernel.args.hot=" + std::to_string(hot), "kernel.args.inflight=" + std::to_string(op)};
}
double fresh_rows_value(int op, int hot, const std::string& extra = "") {
  std::vector<std::string> sets = fresh_rows_sets(op, hot);
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}

}  // namespace

// fresh.bulk_store.{fresh,l2}.7168.512r.c4w4_ns: 14855 / 14860 ns on the GPU (two runs each): a first
// write to never-written cudaMalloc memory costs nothing extra, in the model neither.
TEST(ShimSteps, BulkStoresToFreshMemory) { EXPECT_NEAR(fresh_rows_value(1, 0), 14855, 743); }
TEST(ShimSteps, BulkStoresToWrittenMemory) { EXPECT_NEAR(fresh_rows_value(1, 1), 14860, 743); }

TEST(ShimSteps, BulkLoadsFromFreshMemoryMissL2) {
  // fresh.bulk_load.fresh.7168.512r.c4w4_ns 19910 ns on the GPU (two runs), as memory written and pushed out
  // of L2 (evicted: 21630), against 13025 from L2: never-written memory reads as L2 misses. The model gives
  // 16310 (0.82; its L2 loads are 0.66 of the GPU's, the misses' extra 7.7 us against 6.9).
  const double fresh = fresh_rows_value(3, 0);
  EXPECT_GT(fresh, 13025);
  EXPECT_NEAR(fresh, 19910, 3982);
}

// Fifteenth pass (b): a warp's plain 16 B loads and stores (calib_probe mode 23, 4 x 4 warps).
// fresh.plain_load.l2.7168.512r.c4w4_ns 46,220 ns (s19b; 53,390 in the eighth pass): the compiled
// loop has loads out before it uses the first; the model gave 2.12 of the row when code waited for
// each. Since the twenty-second pass (s22-code) the loop's code between two loads issues at
// sm.code_indep_insn_ns. Since the twenty-eighth pass (s23-load) the loop names its SASS's count,
// 4 (ptx::LoadsBeforeUse), in place of the preset's 3: 38,840 ns (0.84; 45,250 at 3, 0.98), and
// the one-warp row of the same loop 1.13 (1.32 at 3): the GPU's c4w4 row is slower than 4 loads
// out allow, its c1w1 row faster. 37,200 since the group's loads after its first, 512 B apart,
// issue at sm.load_near_issue_ns 0 (thirty-fourth pass (s28-reduce); the row re-measured
// 36,610-49,460 on the H200, median repetition 35,950: 1.03). 38,420 since a group crossing a
// 4 KiB boundary of the other parity of bits 12 ^ 13 waits sm.load_far_ns (s28-part; 1.07).
TEST(ShimSteps, PlainLoadsIssueSeveralBeforeTheirUse) { EXPECT_NEAR(fresh_rows_value(4, 1), 38420, 0.02 * 38420); }
TEST(ShimSteps, PlainLoadsTakeTheirLoopsCountNotThePresets) {  // main 0668c37 read 104,300: each load waited for
  EXPECT_NEAR(fresh_rows_value(4, 1, "platform.sm.loads_before_use=1"), 38420, 0.02 * 38420);
}

// fresh.plain_store.l2.7168.512r.c4w4_ns 14770 ns: four warps' stores keep the SM's write path
// busy (62 GB/s) while each warp runs its loop. Booked in time order (twentieth pass (s21-quant))
// the model read 1.24 of the row (18,330 ns) at any quantum, the loop's code between two stores
// charged at the dependent chains' rates; at sm.code_indep_insn_ns (twenty-second pass (s22-code),
// the loop nvcc unrolls) 15,090 ns (1.02), at the 1 us and the 20 ns quantum alike.
TEST(ShimSteps, PlainStoresQueueForTheWritePath) {
  const double row = fresh_rows_value(2, 1);
  EXPECT_GT(row, 0.95 * 14770);  // never faster than the write path
  EXPECT_NEAR(row, 14940, 0.01 * 14940);  // 15,090 at the weak-store window's 50 ns (before s25-flag)
}
// The same row at a 20 ns quantum (one simulation a test): 15,100 ns against 15,090 at 1 us
// (before s21-quant: 14,760 at 1 us, 19,420 at 20 ns). Since the forty-fourth pass (s38-touch: each SM's first
// plain store to the window's page waits sm.store_first_touch_ns) 14,960 at 1 us, 15,100 at 20 ns (15,060 without).
TEST(ShimSteps, PlainStoresDoNotHangOnTheQuantum) {
  EXPECT_NEAR(fresh_rows_value(2, 1, "platform.sim.quantum_ns=20"), 14960, 0.015 * 14960);
}
// Each store waiting for the write path to take it (sm.store_queue_ns 0): 15,350 ns.
// Bulk stores each followed by two 4 B stores (fresh.bulk_store_words, 512 rows, 4 x 4 warps): the
// bulk copies book the TMA engine and the write path at SystemC time, and a plain store waiting for
// the write path waits in SystemC time, so the row is 18,000 ns at 1 us and 20 ns alike (15,730 with
// the weak-store window's 50 ns before the thirty-first pass (s25-flag); no GPU row at 512 rows;
// twenty-first pass (s22-bulk); before: 15,510 at 1 us, 16,270 at 20 ns). 18,410 since the
// thirty-third pass (s27-store): s26-bulk's WARPSYNC.ALL rule reverted (the GPU's rows with and
// without the __syncwarp read the same: store_order.*.nosync), with tma.engine_mva as merged (s26-mva).
// 15,290 since the thirty-sixth pass (s30-chain): lane 0's loop is its SASS's code (ptx::store_loop_code)
// and the row's WARPSYNC.ALL does not wait for the landing (the 128-row GPU rows read 0.995-0.997).
// 16,090 since the TMA engine's wait is paid once a pass (thirty-seventh pass (s31-wait)). 14,710 since a
// plain store takes its turn among the SM's plain stores (sm.plain_store_own_turn, forty-first pass
// (s35-pull)): the two words no longer wait behind the other warps' bulk stores booked before them (the
// 128-row GPU rows fresh.bulk_store_words.{fresh,l2}.7168.128r.c4w4_ns read 1.017 / 1.014 -> 0.959 / 0.951).
TEST(ShimSteps, BulkStoresWithWords) { EXPECT_NEAR(fresh_rows_value(5, 1), 14710, 0.01 * 14710); }
TEST(ShimSteps, BulkStoresDoNotHangOnTheQuantum) {  // one simulation a test
  EXPECT_NEAR(fresh_rows_value(5, 1, "platform.sim.quantum_ns=20"), 14710, 0.01 * 14710);
}
// Without the first touch (s38-touch): with it the four SMs' first stores wait 35 ns each, which reorders them on
// the write path, and the row with sm.store_queue_ns 0 reads 15,020 against 14,960.
TEST(ShimSteps, PlainStoresWaitingForTheWritePath) {  // 15,150 against 14,940 (window 10 ns, s25-flag)
  std::vector<std::string> sets = fresh_rows_sets(2, 1);
  sets.insert(sets.end(), {"platform.sm.store_queue_ns=0", "platform.sm.store_first_touch_ns=0"});
  EXPECT_GT(calib_probe_value(sets), 1.01 * 14940);
}

// store_chain_probe (calib_probe mode 23 + 64): one warp's 512 bulk-stored rows of 7168 B, mode 23's store sequence
// without its op dispatch. Device call D1 of session 28 (H100): 58,470 ns with lane 0's branch and a WARPSYNC.ALL
// a row (v0), 58,450 without the `__syncwarp` (v1), 58,490 with lane 0 running the loop alone (v2): the SM's write
// path, so the WARPSYNC.ALL costs nothing there (docs/hw-accuracy.md, thirty-fourth pass (s28-store)).
namespace {
double store_chain_ns(int variant) {
  return calib_probe_value({"platform=h200", "kernel.args.mode=23", "kernel.args.bytes=7168", "kernel.args.count=512",
                            "kernel.args.warps=1", "kernel.blocks=1", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                            "kernel.args.inflight=" + std::to_string(64 + variant)});
}
}  // namespace

TEST(ShimSteps, OneWarpsBulkStoresReadTheWritePathWithTheirWarpsync) {  // one simulation a test
  EXPECT_NEAR(store_chain_ns(0), 58470, 0.05 * 58470);
}
TEST(ShimSteps, OneWarpsBulkStoresReadTheWritePathWithoutTheirWarpsync) {
  EXPECT_NEAR(store_chain_ns(1), 58450, 0.05 * 58450);
}

// fresh.bulk_store_words.l2.7168.8r.c1w1.w16m_ns: one warp's 8 bulk-stored rows with their words, 1,453 ns on the
// H200 (three passes) and the H100 (session 31's D2). The loop's first store runs the SASS's code from the loop's
// head to it (sm.store_loop_first_store_head): 1,309 (0.901); with the host count before it 1,279 (0.880)
// (docs/hw-accuracy.md, forty-second pass (s36-store)); with the words' first touch too (sm.store_first_touch_ns),
// 1,344 (0.925: forty-fourth pass (s38-touch)).
namespace {
double store_words_8r_ns(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=23", "kernel.args.bytes=7168", "kernel.args.count=8",
                                   "kernel.args.warps=1", "kernel.blocks=1", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                                   "kernel.args.inflight=5"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return calib_probe_value(sets);
}
}  // namespace

TEST(ShimSteps, OneWarpsFirstBulkStoreRunsTheLoopsHeadCode) {  // one simulation a test
  EXPECT_NEAR(store_words_8r_ns(), 1453, 0.10 * 1453);
}
TEST(ShimSteps, OneWarpsFirstBulkStoreAfterTheHostCountIsShort) {
  EXPECT_LT(store_words_8r_ns({"platform.sm.store_loop_first_store_head=0", "platform.sm.store_first_touch_ns=0"}), 0.90 * 1453);
}

// The words' first store to their page waits sm.store_first_touch_ns (docs/hw-accuracy.md, forty-fourth pass
// (s38-touch)): one warp's one 1 KiB row and its two words, 326.3 ns on session 31's D2 (H100; the bulk row alone
// 288.4, the model's 288.9). Without the touch the model's words row is 291.4; with their page touched before the
// timed loop (store_order_probe, `inflight` + 16 + 128 + 8: two words 1 KiB further) the loop's words pay nothing.
namespace {
double words_1k_1r_ns(int inflight, const std::string& extra = "") {
  std::vector<std::string> sets = {"platform=h200", "kernel.args.mode=23", "kernel.args.bytes=1024", "kernel.args.count=1",
                                   "kernel.args.warps=1", "kernel.blocks=1", "kernel.args.window_kib=16384", "kernel.args.hot=1",
                                   "kernel.args.inflight=" + std::to_string(inflight)};
  if (!extra.empty()) sets.push_back(extra);
  return calib_probe_value(sets);
}
}  // namespace

TEST(ShimSteps, OneWarpsWordsFirstStoreToTheirPageWaitsTheTouch) {  // one simulation a test
  EXPECT_NEAR(words_1k_1r_ns(5), 326.3, 0.05 * 326.3);
}
TEST(ShimSteps, OneWarpsWordsWithoutTheTouchAreShort) {
  EXPECT_LT(words_1k_1r_ns(5, "platform.sm.store_first_touch_ns=0"), 0.93 * 326.3);
}
// The model without the touch: 189.4; with a line granule (sm.store_touch_bytes 128) the loop's words are another
// line's first store: 224.7.
TEST(ShimSteps, OneWarpsWordsOnAPageTouchedBeforePayNoTouch) { EXPECT_NEAR(words_1k_1r_ns(157), 189.4, 2.0); }

// The grid sync's and the signal's release apart (calib_probe modes 14 / 15 with `stride` >= 65536,
// sync_probe.cu; docs/hw-accuracy.md, eighteenth pass (s19-route2)). ns per sync, one CTA of 4 warps.
namespace {
double sync_ns(int mode, uint32_t route, const std::string& extra = "") {
  std::vector<std::string> sets = {"kernel.args.mode=" + std::to_string(mode), "kernel.args.bytes=16", "kernel.args.warps=4",
                                   "kernel.args.window_kib=1", "kernel.args.stride=" + std::to_string(route << 16)};
  if (!extra.empty()) sets.push_back(extra);
  return step_ns(sets);
}
}  // namespace

// Since the thirty-ninth pass (s33-sync) the sync rows' references are their median repetition on
// the H200 passes (hw/calib/results/h200-2026-12-06-s33-syncref/sync_refs.md): the stored 478.4 / 481.7
// (s19b-route2) read the relaxed arrival as the release one, which no pass since reproduces.
TEST(ShimSteps, GridSyncWithARelaxedArrival) {  // shim.grid_sync.relaxed.c1_ns 373.2 (model 372.8)
  EXPECT_NEAR(sync_ns(14, 3), 373.2, 37.3);
}

// The idle release.gpu's MEMBAR (mem.idle_release_gpu_ns 265 with mem.idle_release_pays_fence 2):
// shim.grid_sync.probe.c1_ns 642.7, the model 642.4.
TEST(ShimSteps, GridSyncsIdleReleasePaysItsMembar) {  // shim.grid_sync.probe.c1_ns 642.7
  EXPECT_NEAR(sync_ns(14, 1), 642.7, 64.3);
}

TEST(ShimSteps, GridSyncsIdleReleaseCostsNoFenceWhenAskedTo) {  // as the relaxed arrival, 373.2
  EXPECT_NEAR(sync_ns(14, 1, "platform.mem.idle_release_pays_fence=0"), 373.2, 37.3);
}

TEST(ShimSteps, GridSyncsIdleReleasePaysTheFenceWhenAskedTo) {  // h800's rule: mem.fence_gpu_ns 136
  EXPECT_GT(sync_ns(14, 1, "platform.mem.idle_release_pays_fence=1"), 373.2 + 100);
}

// Nineteenth pass (s20-sync): the poll goes out behind the arrival's atomic (SASS: ATOMG, then
// LDG.STRONG.GPU of the same word, nothing waiting for the atomic's register). At 4 CTAs an
// arrival that is not the last misses the flip on that poll and pays a second one
// (shim.grid_sync.relaxed.c4_ns 774.5 against .c1_ns 478.4 on the GPU; the model 657.0 and 479.7).
// Since the thirty-ninth pass (s33-sync) the median repetitions 539.0 and 373.2; the model 558.8 and 372.8.
TEST(ShimSteps, GridSyncsPollersNotLastPayASecondPoll) {
  EXPECT_GT(sync_ns(14, 3, "kernel.blocks=4"), 373.2 + 150);
}

// Without the acquire load's cost the poll behind the atomic hides its own round trip: one CTA's
// sync is an atomic's round trip and the code, not an atomic's and then a poll's (494.5 before).
TEST(ShimSteps, GridSyncsPollOverlapsTheArrivalsAtomic) {
  EXPECT_LT(sync_ns(14, 3, "platform.mem.acquire_load_ns=0"), 494.5 - 100);
}

// Twenty-eighth pass (s23-sync): the pollers that are not the last arrival spread over their poll
// period, as the GPU's do: 4 CTAs 804.2 ns (in step: 655.1); since the thirty-second pass
// (s26-phases, mem.poll_phase_once, tests/nvidia/test_poll_phase.cpp) 736.6; since the thirty-ninth pass
// (s33-sync) 558.8 against the row's median repetition 539.0 (the stored 774.5 was release-like).
TEST(ShimSteps, GridSyncsPollersSpreadOverThePollPeriod) {  // shim.grid_sync.relaxed.c4_ns 539.0
  EXPECT_NEAR(sync_ns(14, 3, "kernel.blocks=4"), 539.0, 53.9);
}

// The NVLink barrier with a relaxed signal: since the thirty-third pass (s27-flag) the system-scope
// cost is the release's (mem.idle_release_pays_fence 2), not the poll of the own signal
// (mem.acquire_sys_load_ns 0): 545.5 ns (955.5 before) against the re-measured 512.8 (H200, session 24)
// and 502.6-516.1 (H100, session 27); the stored 961.6 reproduces on neither card. Since the thirty-ninth
// pass (s33-sync) the poll of the own signal pays its acquire (mem.acquire_sys_load_ns 111, fitted on this
// row's median repetition on the H200 passes, 588.4; its repetitions 466-630 in two groups): 588.4.
TEST(ShimSteps, SignalWaitWithARelaxedSignalPaysItsPollsAcquire) {  // shim.signal_wait.relaxed.pe1_ns 588.4
  EXPECT_NEAR(sync_ns(15, 3), 588.4, 58.8);
}
// With the release signal (red.release.sys) the barrier pays mem.fence_sys_ns: 1141 ns against the
// re-measured 1097 (H200, session 24); since the thirty-ninth pass 1116.0 against the median repetition 1116.5.
TEST(ShimSteps, SignalWaitWithAReleaseSignalPaysTheSystemFence) {  // shim.signal_wait.probe.pe1_ns 1116.5
  EXPECT_NEAR(sync_ns(15, 1), 1116.5, 111.7);
}
// With the release.gpu signal the barrier pays the idle MEMBAR.ALL.GPU (mem.idle_release_gpu_ns): 865.0
// against the median repetition 878.4 (489.0 before the thirty-ninth pass).
TEST(ShimSteps, SignalWaitWithAReleaseGpuSignalPaysItsMembar) {  // shim.signal_wait.rel_gpu.pe1_ns 878.4
  EXPECT_NEAR(sync_ns(15, 5), 878.4, 87.8);
}

// The same row with the code figures before the jump fit (2.828 ns for every instruction): the
// load queues behind the hold booked at the store's issue whatever the code between the store and
// the next load costs (before the nineteenth pass it slipped ahead with cheaper code).
TEST(ShimSteps, DispatchsSendStep7kWaitsWhateverTheCodeCosts) {  // shim.copy_round_warp.l2.7k.c1w1_ns 448.9
  EXPECT_NEAR(step_ns({"kernel.args.mode=12", "kernel.args.bytes=7184", "platform.sm.code_insn_ns=2.828",
                       "platform.sm.code_jump_ns=2.828"}),
              448.9, 44.9);
}

// Forty-second pass (s36-steps): a bulk store whose partial edge line continues none of its SM's last
// stores holds its thread's next bulk load until its bytes would have left at tma.partial_store_floor_gbytes_per_s (31.51: 228 ns for 7184 B) from its issue. Dispatch's
// bare round with one warp on each of 4 SMs (messages interleaved across the SMs): 555.5 ns, 515.4
// without the floor (row shim.dispatch_route.l2.7168.c4w1.none_ns 592.4 on the H200, c1w1 540.6).
namespace {
double route_none_ns(int ctas, int warps, int bytes, const std::string& extra = "kernel.args.stride=65536") {
  return step_ns({"kernel.args.mode=29", "kernel.args.bytes=" + std::to_string(bytes), extra,
                  "kernel.blocks=" + std::to_string(ctas), "kernel.args.warps=" + std::to_string(warps)});
}
}  // namespace

TEST(ShimSteps, LoneWarpsRoundHeldByItsPartialLineStore) {  // shim.dispatch_route.l2.7168.c4w1.none_ns 592.4
  EXPECT_NEAR(route_none_ns(4, 1, 7168), 592.4, 59.2);
}

// Without the floor the 4-SM round is the one-SM one: 515.4 ns (0.870 of the row).
TEST(ShimSteps, LoneWarpsRoundWithoutThePartialLineFloor) {
  EXPECT_NEAR(step_ns({"kernel.args.mode=29", "kernel.args.bytes=7168", "kernel.args.stride=65536", "kernel.blocks=4",
                       "platform.tma.partial_store_floor_gbytes_per_s=0"}),
              515.4, 0.5);
}

// One warp whose messages follow each other (packed) continues its own last store: no floor (516.1 ns
// with the first store's; row shim.dispatch_route.l2.7168.c1w1.none_ns 540.6).
TEST(ShimSteps, LoneWarpContinuingItsLastStorePaysNoFloor) {  // shim.dispatch_route.l2.7168.c1w1.none_ns 540.6
  EXPECT_NEAR(route_none_ns(1, 1, 7168), 516.1, 0.5);
}

// Four warps of one SM with 1040 B rows: each row continues another warp's of the same SM, none pays the
// floor (343.1 ns, main's; row shim.copy_round_warp.l2.1040.c1w4_ns 375.1; a fixed 228 ns floor on the
// thread's own last store, s30-route's prototype, read 493.1).
TEST(ShimSteps, FourWarpsContinuingEachOthersStoresPayNoFloor) {  // shim.copy_round_warp.l2.1040.c1w4_ns 375.1
  EXPECT_NEAR(step_ns({"kernel.args.mode=12", "kernel.args.bytes=1040", "kernel.args.warps=4"}), 343.1, 0.5);
}

// One warp on each of 4 SMs with 1040 B rows pays its bytes only (33 ns, under the round): 336.0 ns as on one
// SM; the H100 (session 36's D1) reads 376.4 against 365.1, a fixed 228 ns floor 487.7.
TEST(ShimSteps, LoneWarpsSmallRowsPayTheirBytesOnly) {
  EXPECT_NEAR(step_ns({"kernel.args.mode=12", "kernel.args.bytes=1040", "kernel.blocks=4"}), 336.0, 0.5);
}
