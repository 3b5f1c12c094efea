// Litmus tests on the timed PTX model, through the CUDA shim and the SM model: the weak
// outcome of message passing and of store buffering appears under some seed without the
// release/acquire (fence.sc), and never with it, over several seeds.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

int weak_outcomes(const symsim::RunOutput& out) {
  // "weak outcome in N of M iterations" in the reader's check.
  for (const auto& c : out.result["checks"]) {
    const std::string d = c["detail"];
    const auto p = d.find("weak outcome in ");
    if (p != std::string::npos) return std::stoi(d.substr(p + 16));
  }
  return -1;
}

}  // namespace

class LitmusSeeds : public ::testing::TestWithParam<int> {};

TEST_P(LitmusSeeds, MessagePassingWithReleaseAcquireNeverWeak) {
  const auto out = run("litmus_mp_release_acquire", {"seed=" + std::to_string(GetParam())});
  expect_pass(out);
  EXPECT_EQ(weak_outcomes(out), 0);
}

TEST_P(LitmusSeeds, MessagePassingOverNvlinkWithReleaseAcquireNeverWeak) {
  const auto out = run("litmus_mp_nvlink_release_acquire", {"seed=" + std::to_string(GetParam())});
  expect_pass(out);
  EXPECT_EQ(weak_outcomes(out), 0);
}

TEST_P(LitmusSeeds, StoreBufferingWithFenceScNeverWeak) {
  const auto out = run("litmus_sb_fence_sc", {"seed=" + std::to_string(GetParam())});
  expect_pass(out);
  EXPECT_EQ(weak_outcomes(out), 0);
}

INSTANTIATE_TEST_SUITE_P(Seeds, LitmusSeeds, ::testing::Values(1, 2, 3, 4));

TEST(Litmus, MessagePassingWithoutFencesShowsTheWeakOutcome) {
  const auto out = run("litmus_mp_relaxed");
  EXPECT_EQ(out.result["status"], "pass") << out.result["expectations"].dump(1);
  EXPECT_GT(weak_outcomes(out), 0);
}

TEST(Litmus, MessagePassingOverNvlinkWithoutFencesShowsTheWeakOutcome) {
  const auto out = run("litmus_mp_nvlink_release_acquire", {"kernel.args.fenced=0", "kernel.args.expect_weak=1"});
  EXPECT_GT(weak_outcomes(out), 0);
  EXPECT_GT(count_hazards(out, "flag_before_data"), 0);
}

TEST(Litmus, StoreBufferingWithoutFencesShowsTheWeakOutcome) {
  const auto out = run("litmus_sb");
  expect_pass(out);
  EXPECT_GT(weak_outcomes(out), 0);
}
