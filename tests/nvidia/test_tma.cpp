// TMA and mbarrier accounting on h800: bulk loads (here remote, over NVLink) complete the
// transaction bytes an arrive-and-expect-tx armed, the phase completes when both arrivals and
// bytes are in, and waiting threads then see the bytes; completing more bytes than the phase
// was armed for traps, naming the mbarrier and the call.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

TEST(Tma, RemoteBulkLoadsCompleteTheMbarrierPhaseByteForByte) {
  const auto out = run("tma_probe_2gpu");
  expect_pass(out);
  EXPECT_EQ(out.result["checks"].size(), 4u);
  // 2 GPUs x 4 rounds x 16 KiB pulled over NVLink.
  EXPECT_EQ(out.result["stats"]["nvlink"].size(), 4u);
}

TEST(Tma, LocalBulkLoadsAlsoWork) { expect_pass(run("tma_probe_2gpu", {"kernel.args.remote=0"})); }

TEST(Tma, ArmingFewerTransactionBytesThanTheLoadsCompleteTraps) {
  const auto out = run("tma_probe_2gpu", {"kernel.args.tx_shortfall=16"});
  EXPECT_EQ(out.result["status"], "fail");
  ASSERT_FALSE(out.result["traps"].empty());
  const std::string reason = out.result["traps"][0]["reason"];
  EXPECT_NE(reason.find("16 more transaction bytes completed than the phase expects"), std::string::npos) << reason;
  EXPECT_NE(reason.find("tma_probe.cu"), std::string::npos) << reason;
}
