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
