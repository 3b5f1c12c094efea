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

// The hazard at the exact reader and flag must not hang on sim.quantum_ns. DeepEP V1 rings a
// QP's doorbell every 4th message and on the count's atomic, so with the counts one QP over a
// count can leave while its data is posted on its own QP but not rung yet; the NIC executes
// the data only when a later count rings that QP, so what the count publishes is decided
// when its doorbell arrives (the WQEs posted on the other QPs to that GPU), not when the NIC
// happens to have executed them. Before session 22 a count could overtake data not rung yet
// with no hazard: at quantum 20 ns, seed 1, GPU 10's byte check failed with 0 hazards. With
// session 22's timing (bulk copies booked at SystemC time) the overtakes fell elsewhere (quantum
// 20 ns, seed 4: GPUs 3 and 5). With session 23's grid sync and acquire timing (s23-sync, the
// poll behind the arrival's atomic) they move again: at quantum 20 ns, seed 4, GPU 15's byte
// check fails, explained by GPU 3's count for its expert at gpu15.heap+0x758f40c; at the preset's
// quantum (1 us), seed 1, GPU 14's count at +0x758f438 of GPU 12 overtakes its data (GPU 4 before).
namespace {

const nlohmann::json* hazard_at(const symsim::RunOutput& out, const std::string& id, int pe, const std::string& flag) {
  for (const auto& h : out.result["hazards"]) {
    const std::string detail = h["detail"];
    if (h["id"] == id && h["pe"] == pe && detail.find("after the flag at " + flag + " ") != std::string::npos) return &h;
  }
  return nullptr;
}

}  // namespace

TEST(LowLatencyDispatch, EveryFailedByteCheckAtQuantum20IsExplainedByAHazard) {
  const auto out = run("ll_dispatch_ep16", {"kernel.args.count_qp_offset=1", "platform.ib.path_skew_ns=6000",
                                            "platform.sim.quantum_ns=20", "seed=4"});
  EXPECT_EQ(failed_checks(out), 1) << "GPU 15's byte check";
  for (const auto& c : out.result["checks"]) {
    if (c["ok"].get<bool>()) continue;
    const std::string what = c["what"];  // "gpu G call C: ..."
    const int gpu = std::stoi(what.substr(4));
    bool explained = false;
    for (const auto& h : out.result["hazards"]) explained |= h["id"] == "flag_before_data" && h["pe"] == gpu;
    EXPECT_TRUE(explained) << what << "\n" << out.result["hazards"].dump(1);
  }
  const auto* h = hazard_at(out, "flag_before_data", 15, "gpu15.heap+0x758f40c");
  ASSERT_NE(h, nullptr) << out.result["hazards"].dump(1);
  const std::string detail = (*h)["detail"];
  EXPECT_TRUE((*h)["observed"].get<bool>());
  EXPECT_NE(detail.find("ll_dispatch.cu:114"), std::string::npos) << detail;  // the TMA load of a message
  EXPECT_NE(detail.find("flag written by NIC of GPU 3"), std::string::npos) << detail;
  EXPECT_NE(detail.find("data written by NIC of GPU 3"), std::string::npos) << detail;
}

TEST(LowLatencyDispatch, ACountOvertakingItsDataIsFlaggedAtThePresetQuantum) {
  const auto out = run("ll_dispatch_ep16", {"kernel.args.count_qp_offset=1", "platform.ib.path_skew_ns=6000"});
  const auto* h = hazard_at(out, "flag_before_data", 12, "gpu12.heap+0x758f438");
  ASSERT_NE(h, nullptr) << out.result["hazards"].dump(1);
  const std::string detail = (*h)["detail"];
  EXPECT_NE(detail.find("flag written by NIC of GPU 14"), std::string::npos) << detail;
  EXPECT_NE(detail.find("data written by NIC of GPU 14"), std::string::npos) << detail;
}

TEST(LowLatencyCombine, Ep16EveryTokenIsTheExactSumOfItsExperts) {
  const auto out = run("ll_combine_ep16");
  expect_pass(out);
  EXPECT_GT(out.result["stats"]["totals"]["wqes"].get<int>(), 16 * 128 * 8 / 2) << "most rows cross RDMA";
}
