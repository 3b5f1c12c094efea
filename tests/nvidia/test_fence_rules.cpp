// flag_before_data on the NVIDIA side judged by the PTX ordering rules, not by timing luck
// (issue 23): gin_barrier without the fence.acq_rel.sys before its RDMA signals (DeepEP
// commit dd758caf, fixed by PR #715) is reported on the default h800 preset, where every
// NVLink stamp happens to land before the signal that publishes it: not observed, naming the
// missing fence, the NVLink store and the RDMA signal. With the fence it stays clean (see
// test_gin_barriers.cpp).
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

TEST(FenceRules, GinBarrierWithoutTheSystemFenceIsReportedOnTheDefaultPreset) {
  const auto out = run("gin_barrier_16gpu", {"kernel.args.fence_sys=0"});
  EXPECT_EQ(failed_checks(out), 0) << "every stamp landed in time: only the rules catch it";
  EXPECT_EQ(out.result["status"], "fail");
  ASSERT_GT(count_hazards(out, "flag_before_data"), 0) << out.result["hazards"].dump(1);
  for (const auto& h : out.result["hazards"]) {
    ASSERT_EQ(h["id"], "flag_before_data") << h.dump();
    EXPECT_FALSE(h["observed"].get<bool>()) << h.dump();
    const std::string detail = h["detail"];
    EXPECT_NE(detail.find("no fence.acq_rel.sys between the NVLink store at kernels/ibgda/gin/gin_barrier_test.cu:"),
              std::string::npos)
        << detail;
    EXPECT_NE(detail.find("and the RDMA signal at"), std::string::npos) << detail;
    EXPECT_NE(detail.find("flag written by NIC of GPU"), std::string::npos) << detail;
    EXPECT_NE(detail.find("read 4 B at gpu" + std::to_string(h["pe"].get<int>()) + ".heap+"), std::string::npos)
        << detail;
  }
}
