// NVLink kernels on h800: the barrier publishes every SM's weak remote stores; with a
// GPU-scope release instead it does not, and the ordering model names the flag, the data and
// both writers; intranode dispatch delivers every routed token byte for byte, also to a host
// that reads right after the synchronize; kernel times list every launch.
#include <algorithm>

#include "sym_buffer.cuh"
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

TEST(NvlinkBarrier, EverySmSeesEveryRanksStoresAfterEachBarrier) {
  const auto out = run("nvlink_barrier_8gpu");
  expect_pass(out);
  // 8 GPUs x (completed, saw stamps, stamps landed, counter) checks.
  EXPECT_EQ(out.result["checks"].size(), 32u);
}

TEST(NvlinkBarrier, StaysCorrectWhenNvlinkStoresAreVeryLate) {
  // A 3 us reorder window makes weak NVLink stores land long after the barrier's signals
  // would: the system-scope release still orders them.
  expect_pass(run("nvlink_barrier_8gpu", {"platform.nvlink.reorder_window_ns=3000", "seed=7"}));
}

TEST(NvlinkBarrier, GpuScopeReleaseIsFlaggedAsFlagBeforeData) {
  const auto out = run("nvlink_barrier_8gpu", {"kernel.args.release_sys=0", "platform.nvlink.reorder_window_ns=3000"});
  EXPECT_EQ(out.result["status"], "fail");
  EXPECT_GT(failed_checks(out), 0) << "the stale reads the hazard predicts happen";
  ASSERT_GT(count_hazards(out, "flag_before_data"), 0);
  const std::string detail = out.result["hazards"][0]["detail"];
  // Names the flag (the barrier signal word), the data, and both writers with their lines.
  EXPECT_NE(detail.find("flag at gpu"), std::string::npos) << detail;
  EXPECT_NE(detail.find("flag written by GPU"), std::string::npos) << detail;
  EXPECT_NE(detail.find("comm.cuh"), std::string::npos) << detail;
  EXPECT_NE(detail.find("data written by GPU"), std::string::npos) << detail;
  EXPECT_NE(detail.find("nvlink_barrier.cu"), std::string::npos) << detail;
}

TEST(IntranodeDispatch, EveryRoutedTokenArrivesByteForByte) {
  const auto out = run("intranode_dispatch_8gpu");
  expect_pass(out);
  // Per GPU: completed, counts, bytes.
  EXPECT_EQ(out.result["checks"].size(), 24u);
  // Tokens crossed NVLink: every GPU's port carried data both ways.
  EXPECT_EQ(out.result["stats"]["nvlink"].size(), 16u);
}

TEST(PullDispatch, EveryRoutedTokenIsPulledByteForByte) {
  const auto out = run("pull_dispatch_8gpu");
  expect_pass(out);
  EXPECT_EQ(out.result["checks"].size(), 16u);  // per GPU: completed, pulled
  EXPECT_EQ(out.result["stats"]["nvlink"].size(), 16u) << "tokens crossed NVLink";
}

TEST(PullDispatch, RefusesRankCountsItsKernelIsNotBuiltFor) {
  // pull_dispatch<kNumRanks> exists for 1, 2, 4 and 8 ranks: at 3 the host says so, launching nothing.
  const auto out = run("pull_dispatch_8gpu", {"pes=3"});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string detail = out.result["expectations"].at(0)["detail"];
  EXPECT_NE(detail.find("ranks 1, 2, 4 or 8"), std::string::npos) << detail;
  EXPECT_EQ(out.result["stats"]["kernels"].size(), 0u);
}

TEST(IntranodeCombine, EveryTokenIsTheExactSumOfItsExpertsRows) {
  const auto out = run("intranode_combine_8gpu");
  expect_pass(out);
  EXPECT_EQ(out.result["checks"].size(), 16u);  // per GPU: completed, sums
}

TEST(IntranodeCombine, StaysExactWhenNvlinkStoresAreVeryLate) {
  // TMA stores are waited for before the barrier, whose system-scope release orders them.
  expect_pass(run("intranode_combine_8gpu", {"platform.nvlink.reorder_window_ns=5000"}));
}

TEST(IntranodeDispatch, HostReadsEveryWriteRightAfterTheSynchronize) {
  // With no host-copy latency the host reads right after cudaDeviceSynchronize: the kernel's
  // last weak store (recv_total, just before its threads exit) must have landed by then (this
  // read past a host vector before launches waited for their writes to land).
  expect_pass(run("intranode_dispatch_8gpu", {"platform.host.memcpy_latency_us=0"}));
}

TEST(KernelTimes, EachLaunchIsListedAndHoldsTheGpuSideOfTheLaunch) {
  // One barrier round takes a few us; a 1 ms GPU side of the launch must show in every launch.
  const auto out = run("nvlink_barrier_8gpu", {"pes=2", "kernel.args.rounds=1", "platform.gpu.launch_start_us=1000"});
  expect_pass(out);
  const auto& k = out.result["stats"]["kernels"].at(0);
  ASSERT_EQ(k["per_launch"].size(), 2u);  // one launch per GPU
  double max_us = 0;
  for (const auto& l : k["per_launch"]) {
    EXPECT_GT(l["us"].get<double>(), 1000.0);
    EXPECT_LT(l["us"].get<double>(), 1100.0);
    max_us = std::max(max_us, l["us"].get<double>());
  }
  EXPECT_DOUBLE_EQ(max_us, k["max_us"].get<double>());
}

// SymWindow::get_sym_ptr with the rank's domain set once by the host (lsa_team): peers of this
// NVLink domain sit at a fixed stride, others give nullptr, as ncclGetLsaPointer's arithmetic.
TEST(NvidiaSymWindow, MapsPeersOfItsDomainAndRefusesTheOthers) {
  static uint8_t heap[4 * 64];
  SymWindow w;
  w.rank = 5, w.n_ranks = 8, w.lsa_size = 4, w.lsa_team = 5 / 4, w.lsa_stride = 64;
  w.lsa_base_ptr = heap + 1 * 64;  // rank 5 is member 1 of domain 1 (ranks 4-7)
  uint8_t* p = w.lsa_base_ptr + 16;
  EXPECT_EQ(w.get_sym_ptr(p, 5), p);
  EXPECT_EQ(w.get_sym_ptr(p, 4), heap + 16);
  EXPECT_EQ(w.get_sym_ptr(p, 7), heap + 3 * 64 + 16);
  EXPECT_EQ(w.get_sym_ptr(p, 3), nullptr);
  EXPECT_EQ(w.get_sym_ptr(p, 8), nullptr);
}
