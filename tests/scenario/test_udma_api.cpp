// The CANN SHMEM UDMA device API on the engine: multi-QP, relay, defer/submit batches, the 14
// atomics, ordering and fences, and the credit rule. Each test runs one scenario (its own
// process) and asserts bytes, returned values, CQE and doorbell counts, the path taken, or
// the order in which data landed.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

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

// The failed expectations' details joined (trap messages end up there).
std::string failures(const RunOutput& out) {
  std::string all;
  for (const auto& e : out.result["expectations"])
    if (!e["ok"].get<bool>()) all += e["what"].get<std::string>() + ": " + e["detail"].get<std::string>() + "\n";
  return all;
}

const nlohmann::json& qp_stats(const RunOutput& out, int pe, int slot, int qp) {
  for (const auto& p : out.result["stats"]["pes"])
    if (p["pe"] == pe)
      for (const auto& q : p["qps"])
        if (q["slot"] == slot && q["qp"] == qp) return q;
  static const nlohmann::json none = nlohmann::json::object();
  ADD_FAILURE() << "no stats for pe " << pe << " slot " << slot << " qp " << qp;
  return none;
}

// Every executed WQE, in execution order.
struct WqeLog : Observer {
  std::vector<WqeRecord> wqes;
  void on_wqe_executed(const WqeRecord& r) override { wqes.push_back(r); }
  std::vector<WqeRecord> of(int pe, uint8_t opcode) const {
    std::vector<WqeRecord> out;
    for (const WqeRecord& r : wqes)
      if (r.qp.pe == pe && r.opcode == opcode) out.push_back(r);
    return out;
  }
};

}  // namespace

// ---- multi-QP ------------------------------------------------------------------------------

TEST(UdmaApi, MultiQpBlockIDrivesQpIWithItsOwnSliceAndSignal) {
  WqeLog log;
  const RunOutput out = run("udma_qp_put_signal_4qp", {}, {&log});
  expect_all_checks_pass(out);
  for (int pe = 0; pe < 2; ++pe) {
    const int peer = 1 - pe;
    for (int qp = 0; qp < 4; ++qp) {
      const auto& q = qp_stats(out, pe, peer, qp);
      EXPECT_EQ(q["wqes"], 3) << q.dump();  // one WRITE_WITH_NOTIFY per round
      EXPECT_EQ(q["cqes"], 3);
      EXPECT_EQ(q["cqes_reaped"], 3);
    }
  }
  // Block i's slice (65536 B at offset i * 65536) went through QP i only.
  for (const WqeRecord& r : log.of(0, udma::kWriteWithNotify)) EXPECT_EQ(r.bytes, 65536u);
  std::map<int, std::vector<uint64_t>> offsets;
  for (const WqeRecord& r : log.of(0, udma::kWriteWithNotify)) offsets[r.qp.qp].push_back(r.remote_va % (4 * 65536));
  ASSERT_EQ(offsets.size(), 4u);
  for (const auto& [qp, offs] : offsets)
    for (uint64_t o : offs) EXPECT_EQ(o % (4 * 65536) / 65536, static_cast<uint64_t>(qp));
}

TEST(UdmaApi, QpQuietReapsEachBlocksOwnQp) {
  // udma_put with 4 blocks: block b posts on QP b and drains it with qp_quiet; the counts per
  // QP show each block's CQEs were reaped on its own QP.
  const RunOutput out = run("udma_put_multiqp");
  expect_all_checks_pass(out);
  for (int qp = 0; qp < 4; ++qp) {
    const auto& q = qp_stats(out, 0, 1, qp);
    EXPECT_EQ(q["wqes"], 8);
    EXPECT_EQ(q["cqes_reaped"], 8);
  }
}

// ---- credit ---------------------------------------------------------------------------------

TEST(UdmaApi, FullSqDrainsEveryOutstandingCqeBeforePosting) {
  // 100 puts without quiet on a 64-WQEBB SQ: the post that finds head - tail + 1 + 10 >= 64
  // (the 54th) drains the 53 outstanding CQEs first; the final quiet drains the rest.
  const RunOutput out = run("udma_put_2pe", {"kernel.args.bytes=512", "kernel.args.rounds=100",
                                             "kernel.args.quiet_every=0", "platform.udma.sq_depth_bb=64"});
  expect_all_checks_pass(out);
  const auto& q = qp_stats(out, 0, 1, 0);
  EXPECT_EQ(q["wqes"], 100);
  EXPECT_EQ(q["cqes"], 100);
  EXPECT_EQ(q["cqes_reaped"], 100);
  EXPECT_EQ(q["cq_doorbells"], 2);  // one credit drain + the final quiet
  EXPECT_EQ(q["doorbell_regressions"], 0);
}

// ---- defer / submit ------------------------------------------------------------------------

TEST(UdmaApi, BatchAsksOneCqeAndRingsOneDoorbellPerChunk) {
  WqeLog log;
  const RunOutput out = run("udma_batch_put", {}, {&log});
  expect_all_checks_pass(out);
  const auto& q = qp_stats(out, 0, 1, 0);
  EXPECT_EQ(q["wqes"], 3 * 16);
  EXPECT_EQ(q["doorbells"], 3);  // one chunk per batch
  EXPECT_EQ(q["cqes"], 3);       // only each submit asked for a CQE
  const auto writes = log.of(0, udma::kWrite);
  ASSERT_EQ(writes.size(), 48u);
  for (size_t i = 0; i < writes.size(); ++i) EXPECT_EQ(writes[i].cqe_ps != 0, i % 16 == 15) << i;
}

TEST(UdmaApi, BatchWrappingTheRingGoesInChunksAndDrainsWhenShortOfCredit) {
  const RunOutput out = run("udma_batch_get_credit");
  expect_all_checks_pass(out);
  const auto& q = qp_stats(out, 0, 1, 1);
  EXPECT_EQ(q["wqes"], 4 * 40);
  EXPECT_EQ(q["cqes"], 4);
  // 64-WQEBB ring, guard 10: batches at heads 0, 40, 80, 120 go as 40 | 24+16 | 40 | 8+32.
  EXPECT_EQ(q["doorbells"], 6);
  // Chunks at heads 40, 80 and 128 lack credit and drain the CQ; then the final quiet.
  EXPECT_EQ(q["cq_doorbells"], 4);
  EXPECT_EQ(q["doorbell_regressions"], 0);
}

class BatchContract : public testing::TestWithParam<std::pair<int, std::string>> {};

TEST_P(BatchContract, ViolationStopsTheKernelNamingTheCall) {
  const auto [violate, what] = GetParam();
  const RunOutput out = run("udma_batch_put", {"kernel.args.violate=" + std::to_string(violate)});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string f = failures(out);
  EXPECT_NE(f.find("aclshmemx_udma_qp_"), std::string::npos) << f;
  EXPECT_NE(f.find("breaks the batch contract"), std::string::npos) << f;
  EXPECT_NE(f.find(what), std::string::npos) << f;
  EXPECT_NE(f.find("udma_batch_kernel.cpp"), std::string::npos) << f;  // where the batch opened
}

INSTANTIATE_TEST_SUITE_P(UdmaApi, BatchContract,
                         testing::Values(std::make_pair(1, std::string("to PE 0")),
                                         std::make_pair(2, std::string("sync_id 1")),
                                         std::make_pair(3, std::string("UB base")),
                                         std::make_pair(4, std::string("READ (get)"))));

// ---- atomics -------------------------------------------------------------------------------

class Atomics : public testing::TestWithParam<int> {};

TEST_P(Atomics, EveryAtomicReturnsAndLeavesTheExpectedValue) {
  WqeLog log;
  const RunOutput out = run("udma_atomics_int32", {"kernel.args.type=" + std::to_string(GetParam())}, {&log});
  expect_all_checks_pass(out);
  size_t checked = 0;
  for (const auto& e : out.result["expectations"]) checked += e["what"].get<std::string>().find("atomic ") != std::string::npos;
  EXPECT_EQ(checked, 4u * (23 + 2));  // per PE: 23 integer results and words, 2 float sums
  // What the engine executed for PE 0's script (no CAS retries: nothing else touches its words):
  // add, inc, fetch_add, fetch_inc, fetch and 4 contended fetch_add are FAA; the two
  // compare_swaps plus one CAS per emulated op (8) are CAS; the emulated ops READ first;
  // float add and inc are WRITEs with the reduce flag.
  EXPECT_EQ(log.of(0, udma::kFaa).size(), 5u + 4u);
  EXPECT_EQ(log.of(0, udma::kCas).size(), 2u + 8u);
  EXPECT_EQ(log.of(0, udma::kRead).size(), 8u);
  const auto writes = log.of(0, udma::kWrite);
  ASSERT_EQ(writes.size(), 2u);
  for (const WqeRecord& r : writes) EXPECT_TRUE(r.flags & udma::flag::kUdf);
  for (const WqeRecord& r : log.wqes) EXPECT_TRUE(r.flags & udma::flag::kCqe);  // atomics always ask for a CQE
}

INSTANTIATE_TEST_SUITE_P(UdmaApi, Atomics, testing::Values(0, 1, 2, 3));

TEST(UdmaApi, AtomicsAcrossNodesAndContendedCounter) { expect_all_checks_pass(run("udma_atomics_uint64")); }

// ---- ordering ------------------------------------------------------------------------------

namespace {
// Landing times (last byte placed) of PE 0's WRITEs, in posting order.
std::vector<Ps> landings(const WqeLog& log) {
  std::vector<Ps> t;
  for (const WqeRecord& r : log.of(0, udma::kWrite)) t.push_back(r.remote_write_ps);
  return t;
}
bool in_order(const std::vector<Ps>& t) {
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i] <= t[i - 1]) return false;
  return true;
}
}  // namespace

TEST(UdmaApi, WithoutOrderingALaterWriteMayLandFirst) {
  WqeLog log;
  const RunOutput out = run("udma_ordering_so", {"kernel.args.mode=0", "seed=1"}, {&log});
  expect_all_checks_pass(out);
  const auto t = landings(log);
  ASSERT_EQ(t.size(), 64u);
  EXPECT_FALSE(in_order(t));
  // With this seed the word does not end at 64: a later write landed before an earlier one.
  bool last_not_last = false;
  for (const auto& e : out.result["expectations"])
    last_not_last |= e["detail"].get<std::string>().find("a later write landed earlier") != std::string::npos;
  EXPECT_TRUE(last_not_last) << out.result["expectations"].dump();
}

TEST(UdmaApi, RelaxedOrderingMayAlsoPassEarlierRelaxedWrites) {
  WqeLog log;
  const RunOutput out = run("udma_ordering_so", {"kernel.args.mode=1", "seed=1"}, {&log});
  expect_all_checks_pass(out);
  EXPECT_FALSE(in_order(landings(log)));
}

TEST(UdmaApi, StrongOrderingLandsEachWriteAfterThePrevious) {
  WqeLog log;
  const RunOutput out = run("udma_ordering_so", {"seed=1"}, {&log});
  expect_all_checks_pass(out);
  const auto t = landings(log);
  ASSERT_EQ(t.size(), 64u);
  EXPECT_TRUE(in_order(t));
  for (const WqeRecord& r : log.of(0, udma::kWrite)) EXPECT_EQ(r.flags & 0x7, udma::kOdrStrong);
}

TEST(UdmaApi, FenceStartsEachWriteAfterThePreviousCompleted) {
  WqeLog log;
  const RunOutput out = run("udma_ordering_fence", {}, {&log});
  expect_all_checks_pass(out);
  const auto w = log.of(0, udma::kWrite);
  ASSERT_EQ(w.size(), 16u);
  for (size_t i = 1; i < w.size(); ++i) {
    EXPECT_TRUE(w[i].flags & udma::flag::kFence);
    EXPECT_GE(w[i].wire_ps, w[i - 1].complete_ps) << i;
  }
  // Each write waits a full round trip (~1 us intra-node) for the previous one.
  EXPECT_GE(ps_to_us(w.back().complete_ps - w.front().complete_ps), 15 * 0.8);
}

// ---- relay ---------------------------------------------------------------------------------

TEST(UdmaApi, RelayPutLeavesTowardTheRelayAndLoadsItsLinks) {
  WqeLog log;
  const RunOutput out = run("udma_relay_4pe", {"kernel.args.get=0"}, {&log});
  expect_all_checks_pass(out);
  for (int pe = 0; pe < 4; ++pe) {
    const auto puts = log.of(pe, udma::kWrite);
    ASSERT_EQ(puts.size(), 2u);
    for (const WqeRecord& r : puts) {
      EXPECT_EQ(r.target_pe, (pe + 1) % 4);
      EXPECT_EQ(r.via_pe, (pe + 2) % 4);
      EXPECT_EQ(r.qp.slot, ((pe + 1) % 4) * 4 + (pe + 2) % 4);  // relay table row pe * n + relay
    }
  }
  // Each put crosses its sender's up link, the relay's down and up links and the target's
  // down link: every PE link carries two puts per round (its own and one it relays).
  int links = 0;
  for (const auto& l : out.result["stats"]["links"]) {
    EXPECT_EQ(l["messages"], 2 * 2) << l.dump();
    ++links;
  }
  EXPECT_EQ(links, 8);
}

TEST(UdmaApi, RelayGetReturnsThroughTheRelay) {
  WqeLog log;
  const RunOutput out = run("udma_relay_4pe", {}, {&log});
  expect_all_checks_pass(out);
  for (const WqeRecord& r : log.of(0, udma::kRead)) EXPECT_EQ(r.via_pe, 2);
}

class RelayPreconditions : public testing::TestWithParam<std::pair<int, std::string>> {};

TEST_P(RelayPreconditions, InvalidRelayStopsTheKernel) {
  const auto [offset, why] = GetParam();
  const RunOutput out = run("udma_relay_4pe", {"kernel.args.relay_offset=" + std::to_string(offset)});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string f = failures(out);
  EXPECT_NE(f.find("aclshmemx_udma_relay_put_nbi: invalid pe="), std::string::npos) << f;
  EXPECT_NE(f.find(why), std::string::npos) << f;
}

INSTANTIATE_TEST_SUITE_P(UdmaApi, RelayPreconditions,
                         testing::Values(std::make_pair(0, std::string("relay_pe=0 (my pe 0")),    // the caller itself
                                         std::make_pair(1, std::string("pe=1 relay_pe=1"))));    // the target itself

// ---- SIMT (VF_CALL) ------------------------------------------------------------------------

TEST(UdmaApi, SimtThreadsPlanABatchThatScalarCodePosts) {
  WqeLog log;
  const RunOutput out = run("udma_simt_plan", {}, {&log});
  expect_all_checks_pass(out);
  const auto puts = log.of(0, udma::kWrite);
  ASSERT_EQ(puts.size(), 128u);
  // Slot order is the order threads claimed slots with atomicAdd: round-robin fibers claim
  // them in thread order, so the puts walk the buffer chunk by chunk.
  for (size_t i = 1; i < puts.size(); ++i) EXPECT_EQ(puts[i].local_va - puts[i - 1].local_va, 512u) << i;
  EXPECT_EQ(qp_stats(out, 0, 1, 0)["doorbells"], 1);
}

TEST(UdmaApi, SimtThreadsOfUpTo1024RunWithBarriers) {
  expect_all_checks_pass(run("udma_simt_plan", {"kernel.args.threads=1024", "kernel.args.chunk_bytes=64"}));
}

TEST(UdmaApi, StDevInsideAVfStopsTheKernel) {
  const RunOutput out = run("udma_simt_plan", {"kernel.args.doorbell_in_vf=1"});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string f = failures(out);
  EXPECT_NE(f.find("st_dev called from a SIMT VF (thread 3,0,0)"), std::string::npos) << f;
  EXPECT_NE(f.find("udma_simt_plan_kernel.cpp:"), std::string::npos) << f;
}
