// Runs one scenario, whatever its platform family: the family builds the platform and attaches
// its own observers (runner/platform_family.h); this runs one host program per PE and turns
// what happened into the one result model (runner/result_json.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/observer.h"
#include "sim/runner/run_summary.h"
#include "sim/scenario/scenario.h"

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

}  // namespace symsim
