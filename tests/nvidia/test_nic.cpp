// The GPU-driven NIC on h800 (two GPUs in different NVLink domains, so RDMA is the only path):
// a WRITE then an ATOMIC on one RC QP arrive in that order; a 64 B WRITE lands near the fitted
// 2.8 us; reserving SQ slots without waiting overruns the ring; a collapsed CQ never overflows
// while an ordinary one that nobody reaps does.
#include <map>

#include "models/nvidia/mlx5_layout.h"
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;
using symsim::Observer;
using symsim::Ps;
using symsim::WqeRecord;

namespace {

// The NIC's record of every WQE, in execution order.
struct WqeLog : Observer {
  std::vector<WqeRecord> wqes;
  void on_wqe_executed(const WqeRecord& r) override { wqes.push_back(r); }
};

}  // namespace

TEST(Nic, WriteThenAtomicOnOneQpArriveInOrder) {
  WqeLog log;
  const auto out = run("rdma_write_then_atomic", {}, {&log});
  expect_pass(out);
  // Pairs (WRITE i, ATOMIC i): the atomic is performed after the write has fully landed.
  int pairs = 0;
  for (size_t i = 0; i + 1 < log.wqes.size(); ++i) {
    const WqeRecord& w = log.wqes[i];
    const WqeRecord& a = log.wqes[i + 1];
    if (w.qp.pe != 0 || w.opcode != symsim::nv::mlx5::kOpRdmaWrite || a.opcode != symsim::nv::mlx5::kOpAtomicMaskedFa) continue;
    EXPECT_LT(w.remote_write_ps, a.remote_write_ps) << "WQE " << w.wqe_index;
    ++pairs;
  }
  EXPECT_EQ(pairs, 64);
}

// With adaptive routing every message picks up to 3 us of path delay. The NIC keeps one QP's
// messages in order whatever their paths; the QPs are not ordered with each other.
constexpr const char* kAdaptiveRouting = "platform.ib.path_skew_ns=3000";

TEST(Nic, AtomicOnAnotherQpMayOvertakeItsDataAndIsFlagged) {
  // The signal on a second QP is not ordered with the data: with enough pairs, some signal
  // lands first, and the reader's stale read is a flag_before_data naming the NIC as writer.
  // (256 B slots: the reader checks a slot as fast as the sender posts the next pair.)
  const auto out = run("rdma_write_then_atomic", {"kernel.args.atomic_qp=1", kAdaptiveRouting});
  ASSERT_GT(count_hazards(out, "flag_before_data"), 0) << out.result["hazards"].dump(1);
  const std::string detail = out.result["hazards"][0]["detail"];
  EXPECT_NE(detail.find("NIC of GPU 0"), std::string::npos) << detail;
}

// Ringing the data's QP every 4th WRITE: the atomics on the second QP leave while three of
// every four WRITEs wait for their doorbell. Every stale slot is a flag_before_data, at any
// sim.quantum_ns, though the NIC executes those WRITEs only after the signal has landed.
static void expect_unrung_writes_flagged(const char* quantum) {
  const auto out = run("rdma_write_then_atomic", {"kernel.args.atomic_qp=1", "kernel.args.ring_every=4", quantum});
  ASSERT_EQ(count_hazards(out, "flag_before_data"), 1) << out.result["hazards"].dump(1);
  const auto& h = out.result["hazards"][0];
  EXPECT_EQ(h["pe"], 1);
  EXPECT_EQ(h["repeats"].get<int>() + 1, 48) << "one report per stale slot (3 of every 4)";
  const std::string detail = h["detail"];
  EXPECT_NE(detail.find("not even sent yet"), std::string::npos) << detail;
  EXPECT_NE(detail.find("flag written by NIC of GPU 0"), std::string::npos) << detail;
}

TEST(Nic, AtomicOnAnotherQpOvertakingWritesNotRungYetIsFlagged) { expect_unrung_writes_flagged("platform.sim.quantum_ns=1000"); }

TEST(Nic, AtomicOnAnotherQpOvertakingWritesNotRungYetIsFlaggedAtQuantum20) {
  expect_unrung_writes_flagged("platform.sim.quantum_ns=20");
}

TEST(Nic, WriteThenAtomicOnOneQpStayInOrderUnderAdaptiveRouting) {
  const auto out = run("rdma_write_then_atomic", {kAdaptiveRouting});
  expect_pass(out);
}

TEST(Nic, SmallWriteLatencyMatchesTheFittedFigure) {
  WqeLog log;
  const auto out = run("rdma_write_then_atomic", {"kernel.args.count=1", "kernel.args.bytes=64"}, {&log});
  expect_pass(out);
  ASSERT_FALSE(log.wqes.empty());
  const WqeRecord& w = log.wqes.front();
  ASSERT_EQ(w.opcode, symsim::nv::mlx5::kOpRdmaWrite);
  const double us = symsim::ps_to_us(w.remote_write_ps - w.doorbell_ps);
  // calibration.md: 64 B IB latency 2.8 us (same leaf); the h800 preset fits pcie.latency_ns to it.
  EXPECT_NEAR(us, 2.8, 2.8 * 0.15);
}

TEST(Nic, ReservingWithoutWaitingForSlotsOverrunsTheSq) {
  const auto out = run("rdma_sq_overrun");
  EXPECT_EQ(out.result["status"], "pass") << out.result["expectations"].dump(1);
  ASSERT_GT(count_hazards(out, "sq_overrun"), 0);
  const std::string detail = out.result["hazards"][0]["detail"];
  EXPECT_NE(detail.find("16-WQEBB ring"), std::string::npos) << detail;
}

TEST(Nic, WaitingForFreeSlotsDoesNotOverrunTheSq) {
  // The same posts with NVSHMEM's wait for free slots (one simulation per test process).
  const auto ok = run("rdma_sq_overrun", {"kernel.args.wait_for_slots=1"});
  EXPECT_EQ(count_hazards(ok, "sq_overrun"), 0) << ok.result["hazards"].dump(1);
}

TEST(Nic, CollapsedCqNeverOverflows) {
  const auto out = run("rdma_collapsed_cq");
  expect_pass(out);
  EXPECT_EQ(out.result["stats"]["totals"]["cqes"].get<int>(), 200);
}

TEST(Nic, OrdinaryCqThatNobodyReapsOverflows) {
  const auto out = run("rdma_cq_overflow");
  EXPECT_EQ(out.result["status"], "pass") << out.result["expectations"].dump(1);
  EXPECT_GT(count_hazards(out, "cq_overflow"), 0);
}
