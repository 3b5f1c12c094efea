// A put's source rewritten while the put is in flight, on every write path (an MTE3 copy, scalar
// stores written back by dcci, st_dev, a host copy): each 512 B unit PE 1 receives is the source
// as it was when the engine read that unit (when the unit landed), never bytes written after,
// and a rewrite made before the put completed is reported as src_reuse_before_completion at the
// put's PE, QP and WQE, naming the write.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "models/ascend/aiv_core.h"
#include "models/ascend/wqe_layout.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

// What PE 0 did to its source, and its put.
struct RaceLog : AscendObserver {
  std::vector<WqeRecord> puts;
  std::vector<CopyRecord> copies;   // MTE3 copies into the source
  std::vector<StoreRecord> stores;  // direct writes into the source
  std::vector<Ps> observes;         // PE 0's 8-byte observations (the kernel's ld_dev)
  void on_wqe_executed(const WqeRecord& r) override {
    if (r.qp.pe == 0 && r.opcode == udma::kWrite) puts.push_back(r);
  }
  void on_copy(const CopyRecord& c) override {
    if (c.pe == 0 && c.pipe == static_cast<int>(AivPipe::kMte3)) copies.push_back(c);
  }
  void on_gm_store(const StoreRecord& s) override {
    if (s.pe == 0) stores.push_back(s);
  }
  void on_gm_observe(int pe, int, const uint8_t*, uint64_t bytes, Ps t, SiteRef) override {
    if (pe == 0 && bytes == 8) observes.push_back(t);
  }
  // The MTE3 copy into the source (the others carry WQEs to the SQ).
  const CopyRecord* rewrite() const {
    for (const CopyRecord& c : copies)
      if (c.dst == source()) return &c;
    return nullptr;
  }
  const uint8_t* source() const { return puts.empty() ? nullptr : reinterpret_cast<const uint8_t*>(puts[0].local_va); }
};

RunOutput run(uint32_t path, uint32_t delay_ns, uint32_t bytes, RaceLog& log, std::vector<std::string> sets = {}) {
  LoadOptions o;
  o.sets = std::move(sets);
  o.sets.push_back("kernel.args.path=" + std::to_string(path));
  o.sets.push_back("kernel.args.delay_ns=" + std::to_string(delay_ns));
  o.sets.push_back("kernel.args.bytes=" + std::to_string(bytes));
  return run_scenario(load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/udma_src_race.json", o), {},
                      {&log});
}

// PE 1's unit classification ('o' old, 'n' new, 'x' neither), from its host program's check.
std::string received_units(const RunOutput& out) {
  for (const auto& e : out.result["expectations"])
    if (e["what"] == "pe 1: every unit holds PE 0's old or new bytes") return e["detail"].get<std::string>();
  ADD_FAILURE() << "no unit classification in " << out.result["expectations"].dump();
  return "";
}

// The units a put carries when its source changes at `write_ps`: unit k is read when it lands;
// `inclusive`: a unit landing at `write_ps` itself was read before the write.
std::string expected_units(const WqeRecord& put, Ps write_ps, bool inclusive) {
  std::cerr << "put: first unit " << put.first_write_ps << " ps, every " << put.unit_interval_ps << " ps, last "
            << put.remote_write_ps << " ps, complete " << put.complete_ps << " ps; write at " << write_ps << " ps\n";
  std::string units;
  for (uint64_t k = 0; k * 512 < put.bytes; ++k) {
    const Ps read_ps = put.first_write_ps + k * put.unit_interval_ps;
    units += read_ps < write_ps || (inclusive && read_ps == write_ps) ? 'o' : 'n';
  }
  return units;
}

void expect_reported(const RunOutput& out, const WqeRecord& put, const std::string& what, bool kernel_site = true) {
  bool found = false;
  for (const auto& h : out.result["hazards"]) {
    if (h["id"] != "src_reuse_before_completion") continue;
    EXPECT_EQ(h["pe"], 0) << h.dump();
    EXPECT_EQ(h["slot"], put.qp.slot) << h.dump();
    EXPECT_EQ(h["qp"], put.qp.qp) << h.dump();
    EXPECT_EQ(h["wqe"], put.wqe_index) << h.dump();
    EXPECT_NE(h["detail"].get<std::string>().find(what), std::string::npos) << h.dump();
    if (kernel_site) {
      EXPECT_NE(h.value("site", std::string()).find("udma_src_race_kernel.cpp"), std::string::npos) << h.dump();
    }
    found = true;
  }
  EXPECT_TRUE(found) << out.result["hazards"].dump(2);
}

bool mixed(const std::string& units) {
  return units.find('o') != std::string::npos && units.find('n') != std::string::npos;
}

}  // namespace

// The defect of issue 17: WaitFlag made a slow MTE3 copy visible at once, before the put's
// units that land earlier had read the source; the put then carried bytes written after it
// completed.
TEST(SrcRace, MteCopyVisibleAfterThePutCompletedNeverReachesIt) {
  RaceLog log;
  const RunOutput out = run(0, 0, 65536, log, {"platform.aiv.mte_latency_ns=20000"});
  ASSERT_EQ(log.puts.size(), 1u);
  const CopyRecord* rewrite = log.rewrite();
  ASSERT_NE(rewrite, nullptr);
  EXPECT_GT(rewrite->visible_ps, log.puts[0].complete_ps);
  EXPECT_EQ(received_units(out), std::string(128, 'o'));
  expect_reported(out, log.puts[0], "a copy rewrote");  // issued before the completion
}

TEST(SrcRace, MteCopyLandingMidPutSplitsTheUnitsAtItsTime) {
  RaceLog log;
  const RunOutput out = run(0, 200, 65536, log);
  ASSERT_EQ(log.puts.size(), 1u);
  const CopyRecord* rewrite = log.rewrite();
  ASSERT_NE(rewrite, nullptr);
  const std::string units = received_units(out);
  EXPECT_EQ(units, expected_units(log.puts[0], rewrite->visible_ps, false));
  EXPECT_TRUE(mixed(units)) << units;
  expect_reported(out, log.puts[0], "a copy rewrote");
}

TEST(SrcRace, ScalarStoresWithDcciMidPutSplitTheUnitsAtTheirTime) {
  RaceLog log;
  const RunOutput out = run(1, 1000, 65536, log);
  ASSERT_EQ(log.puts.size(), 1u);
  ASSERT_FALSE(log.observes.empty());
  // The stores follow the kernel's ld_dev: they reach memory at the time it synced to.
  const std::string units = received_units(out);
  EXPECT_EQ(units, expected_units(log.puts[0], log.observes.back(), true));
  EXPECT_TRUE(mixed(units)) << units;
  expect_reported(out, log.puts[0], "a scalar store written back by dcci rewrote");
}

// Nothing orders the stores after the put's completion (no quiet): reported by the ordering
// rules, but not observed, and the put carried only the old bytes.
TEST(SrcRace, ScalarStoresAfterThePutCompletedAreReportedNotObservedAndNotSent) {
  RaceLog log;
  const RunOutput out = run(1, 20000, 65536, log);
  EXPECT_EQ(received_units(out), std::string(128, 'o'));
  ASSERT_EQ(log.puts.size(), 1u);
  expect_reported(out, log.puts[0], "only by timing: no quiet or CQE poll covering WQE 0");
  for (const auto& h : out.result["hazards"]) EXPECT_FALSE(h["observed"].get<bool>()) << h.dump();
}

TEST(SrcRace, StDevBeforeCompletionIsReported) {
  RaceLog log;
  const RunOutput out = run(2, 0, 4096, log);
  ASSERT_EQ(log.puts.size(), 1u);
  expect_reported(out, log.puts[0], "a st_dev rewrote");
}

TEST(SrcRace, HostCopyMidPutSplitsTheUnitsAtItsTime) {
  RaceLog log;
  const RunOutput out = run(3, 6500, 65536, log);
  ASSERT_EQ(log.puts.size(), 1u);
  const StoreRecord* host_copy = nullptr;
  for (const StoreRecord& s : log.stores)
    if (s.core == -1 && s.dst == log.source()) host_copy = &s;
  ASSERT_NE(host_copy, nullptr);
  const std::string units = received_units(out);
  EXPECT_EQ(units, expected_units(log.puts[0], host_copy->t, true));
  EXPECT_TRUE(mixed(units)) << units;
  expect_reported(out, log.puts[0], "a host copy (aclrtMemcpy) rewrote", false);
}
