// Helpers for the NVIDIA tests: run a scenario file (with --set overrides) in this process.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace nvtest {

inline std::string scenario_path(const std::string& name) {
  return std::string(SYMSIM_SOURCE_DIR) + "/scenarios/nvidia/" + name + ".json";
}

inline symsim::RunOutput run(const std::string& name, std::vector<std::string> sets = {},
                             std::vector<symsim::Observer*> observers = {}) {
  symsim::LoadOptions o;
  o.sets = std::move(sets);
  return symsim::run_scenario(symsim::load_scenario(scenario_path(name), o), {}, observers);
}

inline void expect_pass(const symsim::RunOutput& out) {
  for (const auto& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_EQ(out.result["status"], "pass");
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump(1);
}

// calib_probe's figure: runs the probe with these overrides, expects a pass and returns the
// number of its "value=X unit" check (0, and a failure, when it reported none).
inline double calib_probe_value(std::vector<std::string> sets) {
  const auto out = run("calib_probe", std::move(sets));
  expect_pass(out);
  for (const auto& c : out.result["checks"]) {
    const std::string d = c["detail"];
    if (d.rfind("value=", 0) == 0) return std::stod(d.substr(6));
  }
  ADD_FAILURE() << "calib_probe reported no value";
  return 0;
}

inline int count_hazards(const symsim::RunOutput& out, const std::string& id) {
  int n = 0;
  for (const auto& h : out.result["hazards"]) n += h["id"] == id;
  return n;
}

inline int failed_checks(const symsim::RunOutput& out) {
  int n = 0;
  for (const auto& c : out.result["checks"]) n += !c["ok"].get<bool>();
  return n;
}

}  // namespace nvtest
