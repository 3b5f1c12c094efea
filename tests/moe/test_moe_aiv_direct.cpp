// The AIV-direct variant (kernel.args.variant=3, kernels/moe/aiv_direct): every AIV core of
// each die sends and receives, tokens and combine rows go as MTE3 stores into the peer's
// window (no WQE, no doorbell), and every token and the combine output still check out byte for
// byte against the host reference.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "kernels/moe/aiv_direct/aiv_quantise.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;
using nlohmann::json;

namespace {

RunOutput run(std::vector<std::string> sets, const std::vector<Observer*>& observers = {}) {
  LoadOptions o;
  o.sets = std::move(sets);
  o.sets.push_back("kernel.args.variant=3");
  return run_scenario(load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/moe/moe_ep8_direct.json", o), {},
                      observers);
}

int passed_checks(const json& r, const std::string& phrase) {
  int n = 0;
  for (const json& c : r["checks"]) {
    EXPECT_TRUE(c["ok"].get<bool>()) << c.dump();
    n += c["what"].get<std::string>().find(phrase) != std::string::npos && c["ok"].get<bool>();
  }
  return n;
}

// The send and receive phases each AIV core marks on its trace track, per (pe, kernel phase).
struct PhaseLog : Observer {
  std::map<std::pair<int, std::string>, std::set<int>> cores;
  std::map<std::pair<int, std::string>, int> spans;
  void on_core_span(int pe, int core, const char* what, Ps, Ps) override {
    const std::string w = what;
    if (w != "moe send" && w != "moe receive") return;
    cores[{pe, w}].insert(core);
    ++spans[{pe, w}];
  }
};

TEST(MoeAivDirect, Ep8EveryCoreStoresIntoPeerWindowsAndEveryByteChecksOut) {
  PhaseLog log;
  const RunOutput out = run({}, {&log});
  for (const json& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_EQ(out.result["status"], "pass");
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump();
  EXPECT_EQ(passed_checks(out.result, "landed in their expert slots byte for byte"), 8);
  EXPECT_EQ(passed_checks(out.result, "equals the host reference"), 8);
  // Both kernels finished on every PE: the driver reports their simulated time.
  EXPECT_EQ(passed_checks(out.result, "simulated dispatch"), 1);
  EXPECT_EQ(passed_checks(out.result, "simulated combine"), 1);
  // Memory semantics only: the UDMA engines never ran.
  const json& t = out.result["stats"]["totals"];
  EXPECT_EQ(t["wqes"].get<int>(), 0);
  EXPECT_EQ(t["doorbells"].get<int>(), 0);
  EXPECT_EQ(t["cqes"].get<int>(), 0);
  // All 48 AIV cores of each die send and receive, in both kernels (one span per kernel each).
  for (int pe = 0; pe < 8; ++pe)
    for (const char* phase : {"moe send", "moe receive"}) {
      const std::pair<int, std::string> key{pe, phase};
      EXPECT_EQ(log.cores[key].size(), 48u) << "PE " << pe << " " << phase;
      EXPECT_EQ(log.spans[key], 2 * 48) << "PE " << pe << " " << phase;
    }
}

// The flags carry the launch's epoch and count blocks and combine rows are never zeroed: launch 2
// reuses launch 0's window halves, whose stale blocks must read as empty.
TEST(MoeAivDirect, FourLaunchesReuseBothWindowHalves) {
  const RunOutput out = run({"kernel.args.launches=4"});
  EXPECT_EQ(out.result["status"], "pass");
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump();
  EXPECT_EQ(passed_checks(out.result, "landed in their expert slots byte for byte"), 8 * 4);
  EXPECT_EQ(passed_checks(out.result, "equals the host reference"), 8 * 4);
}

// The BF16 tokens variant 3 quantises on the device give back exactly the workload's INT8
// values, for every value and every scale the workload draws ((1..64) / 1024).
TEST(MoeAivDirect, DeviceQuantisationOfTheBf16InputRecoversEveryInt8Value) {
  for (int m = 1; m <= 64; ++m) {
    const float scale = static_cast<float>(m) / 1024.0f;
    for (int q = -128; q <= 127; ++q)
      ASSERT_EQ(moe::aiv::quantise(moe::aiv::bf16_input(static_cast<int8_t>(q), scale), 1.0f / scale), q)
          << "scale " << m << "/1024";
  }
}

}  // namespace
