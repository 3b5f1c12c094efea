// Runs one scenario: builds the platform, attaches observers, runs one host program per PE,
// and turns what happened into result.json (status, hazards, expectations, statistics).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/observer.h"
#include "scenario/scenario.h"

namespace symsim {

struct TraceOptions {
  std::string path;              // empty: no trace
  std::vector<int> pes;          // empty: all
  uint64_t window_begin_ns = 0;
  uint64_t window_end_ns = UINT64_MAX;
};

struct RunOutput {
  nlohmann::json result;
  bool passed = false;
};

// One simulation per process: call once. `observers` are attached to the models too (tests).
RunOutput run_scenario(const Scenario& s, const TraceOptions& trace, const std::vector<Observer*>& observers = {});
// The family runners run_scenario dispatches to (scenario/platform_family.h).
RunOutput run_ascend_scenario(const Scenario& s, const TraceOptions& trace, const std::vector<Observer*>& observers);

// The short human summary printed after a run.
std::string summarize(const nlohmann::json& result);

}  // namespace symsim
