// DeepEP V2-style barriers over Gin on two h800 nodes: gin_barrier (all ranks over RDMA
// signals) and gpu_barrier (NVLink barrier of the node + Gin barrier of the rail) publish the
// NVLink stores and RDMA puts made before them; without fence.acq_rel.sys before the RDMA
// signals (DeepEP commit dd758caf, fixed by PR #715) a signal can overtake NVLink data, and the
// ordering model names it.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

TEST(GinBarrier, EverySmSeesNvlinkStoresAndRdmaPutsAfterEachBarrier) {
  const auto out = run("gin_barrier_16gpu");
  expect_pass(out);
  EXPECT_EQ(out.result["checks"].size(), 16u * 3);
  EXPECT_GT(out.result["stats"]["totals"]["wqes"].get<int>(), 0) << "puts and signals went over RDMA";
}

TEST(GinBarrier, StaysCorrectWhenNvlinkStoresAreVeryLate) {
  expect_pass(run("gin_barrier_16gpu", {"platform.nvlink.reorder_window_ns=20000"}));
}

TEST(GinBarrier, WithoutTheSystemFenceAnRdmaSignalOvertakesNvlinkData) {
  const auto out = run("gin_barrier_16gpu", {"kernel.args.fence_sys=0", "platform.nvlink.reorder_window_ns=20000"});
  EXPECT_EQ(out.result["status"], "fail");
  ASSERT_GT(count_hazards(out, "flag_before_data"), 0) << out.result["hazards"].dump(1);
  const std::string detail = out.result["hazards"][0]["detail"];
  EXPECT_NE(detail.find("flag written by NIC of GPU"), std::string::npos) << detail;
  EXPECT_NE(detail.find("gin_barrier_test.cu"), std::string::npos) << detail;
}

TEST(GpuBarrier, NodeAndRailTrafficIsSeenAfterEachBarrier) {
  const auto out = run("gpu_barrier_16gpu", {"platform.nvlink.reorder_window_ns=20000"});
  expect_pass(out);
  EXPECT_EQ(out.result["checks"].size(), 16u * 3);
}
