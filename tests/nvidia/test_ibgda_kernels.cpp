// Kernels over GPU-driven RDMA on h800: DeepEP V1-style low-latency dispatch delivers every
// token to its expert byte for byte, on alternating buffers; sending the counts on another QP
// than the data lets a count overtake its data, and the ordering model says so.
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

TEST(LowLatencyDispatch, Ep16EveryExpertGetsItsTokensByteForByte) {
  const auto out = run("ll_dispatch_ep16");
  expect_pass(out);
  const auto& t = out.result["stats"]["totals"];
  EXPECT_GT(t["wqes"].get<int>(), 16 * 128 * 8 / 2) << "most top-k slots cross RDMA";
  EXPECT_EQ(t["errors"].get<int>(), 0);
}

// With adaptive routing (up to 6 us of path delay per message) messages of different QPs pass
// each other; those of one QP stay in order. 6 us, not 3: since plain stores and atomics book
// their SM units at SystemC time (session 21, s21-quant) the counts leave late enough after
// their data that 3 us of skew lets none overtake (seeds 1-5; at 6 us seeds 1-3 all do).
TEST(LowLatencyDispatch, CountsOnTheDataQpStayBehindTheirDataUnderAdaptiveRouting) {
  expect_pass(run("ll_dispatch_ep16", {"platform.ib.path_skew_ns=6000"}));
}

TEST(LowLatencyDispatch, CountsOnAnotherQpOvertakeTheirDataAndAreFlagged) {
  const auto out = run("ll_dispatch_ep16", {"kernel.args.count_qp_offset=1", "platform.ib.path_skew_ns=6000"});
  EXPECT_EQ(out.result["status"], "fail");
  ASSERT_GT(count_hazards(out, "flag_before_data"), 0) << out.result["hazards"].dump(1);
  const std::string detail = out.result["hazards"][0]["detail"];
  EXPECT_NE(detail.find("flag written by NIC of GPU"), std::string::npos) << detail;
  EXPECT_NE(detail.find("data written by NIC of GPU"), std::string::npos) << detail;
}

TEST(LowLatencyCombine, Ep16EveryTokenIsTheExactSumOfItsExperts) {
  const auto out = run("ll_combine_ep16");
  expect_pass(out);
  EXPECT_GT(out.result["stats"]["totals"]["wqes"].get<int>(), 16 * 128 * 8 / 2) << "most rows cross RDMA";
}
