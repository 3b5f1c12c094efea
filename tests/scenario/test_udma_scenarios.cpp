// Scenario tests on ascend910c: bytes arrive and match (the host drivers' checks), CQE
// counts, signal values, and the latency of one 512 B put against the calibrated figure.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "models/ascend/wqe_layout.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

std::string scenario(const std::string& name) { return std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/" + name + ".json"; }

RunOutput run(const std::string& name, std::vector<std::string> sets = {}, std::vector<Observer*> obs = {}) {
  LoadOptions o;
  o.sets = std::move(sets);
  return run_scenario(load_scenario(scenario(name), o), {}, obs);
}

void expect_all_checks_pass(const RunOutput& out) {
  for (const auto& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_EQ(out.result["status"], "pass");
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump();
}

// Time from a WQE's post by the kernel to the reaping of its CQE, per QP.
struct PutLatency : Observer {
  std::map<std::tuple<int, int, int>, std::vector<Ps>> posted;
  std::vector<Ps> latencies;
  void on_wqe_posted(const QpRef& q, uint32_t, uint8_t, int, Ps t) override { posted[{q.pe, q.slot, q.qp}].push_back(t); }
  void on_cqe_reaped(const QpRef& q, uint32_t index, const uint8_t*, int, Ps t) override {
    latencies.push_back(t - posted[{q.pe, q.slot, q.qp}].at(index));
  }
};

}  // namespace

TEST(UdmaScenario, PutTwoPesBytesMatchAndEveryPutCompletes) {
  const RunOutput out = run("udma_put_2pe");
  expect_all_checks_pass(out);
  const auto& t = out.result["stats"]["totals"];
  EXPECT_EQ(t["wqes"].get<int>(), 2 * 4);   // 2 PEs x 4 rounds
  EXPECT_EQ(t["cqes"].get<int>(), 2 * 4);   // every put asked for a CQE
  EXPECT_EQ(t["bytes"].get<int>(), 2 * 4 * 65536);
}

TEST(UdmaScenario, PutSignalDataCompleteWhenSignalSeen) {
  const RunOutput out = run("udma_put_signal_2pe");
  expect_all_checks_pass(out);
  int signal_checks = 0;
  for (const auto& e : out.result["expectations"])
    signal_checks += e["what"].get<std::string>().find("signal reached 4") != std::string::npos;
  EXPECT_EQ(signal_checks, 2);
}

TEST(UdmaScenario, GetReadsNeighbourData) { expect_all_checks_pass(run("udma_get_4pe")); }

TEST(UdmaScenario, AllgatherAcrossTwoNodes) {
  const RunOutput out = run("udma_allgather_32pe_2nodes");
  expect_all_checks_pass(out);
  EXPECT_EQ(out.result["stats"]["totals"]["wqes"].get<int>(), 32 * 31);
}

TEST(UdmaScenario, PipeSPathMatchesMte3Path) { expect_all_checks_pass(run("udma_put_pipe_s")); }

TEST(UdmaScenario, MultiQpBlocksEachDriveTheirOwnQp) {
  const RunOutput out = run("udma_put_multiqp");
  expect_all_checks_pass(out);
  for (const auto& pe : out.result["stats"]["pes"]) EXPECT_EQ(pe["qps"].size(), 4u) << pe.dump();
}

// Calibration: one 512 B intra-node put (post -> CQE reaped) on ascend910c against the
// 1.3 us UB write latency of calibration.md Table 1; the documented bound is +-15%.
TEST(UdmaScenario, OnePut512BLatencyWithinCalibratedBound) {
  PutLatency lat;
  const RunOutput out = run("udma_put_2pe", {"kernel.args.bytes=512", "kernel.args.rounds=1"}, {&lat});
  expect_all_checks_pass(out);
  ASSERT_EQ(lat.latencies.size(), 2u);
  for (Ps l : lat.latencies) {
    EXPECT_GE(ps_to_us(l), 1.3 * 0.85);
    EXPECT_LE(ps_to_us(l), 1.3 * 1.15);
  }
}

TEST(UdmaScenario, OnePut512BInterNodeLatencyWithinCalibratedBound) {
  PutLatency lat;
  // PE 0 and PE 16 sit under different level-1 switches: 2.1 us in calibration.md Table 1.
  const RunOutput out = run("udma_put_2pe", {"kernel.args.bytes=512", "kernel.args.rounds=1",
                                             "platform.fabric.pes_per_node=1"}, {&lat});
  expect_all_checks_pass(out);
  ASSERT_EQ(lat.latencies.size(), 2u);
  for (Ps l : lat.latencies) {
    EXPECT_GE(ps_to_us(l), 2.1 * 0.85);
    EXPECT_LE(ps_to_us(l), 2.1 * 1.15);
  }
}
