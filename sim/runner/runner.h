// Runs one scenario, whatever its platform family: the family builds the platform and attaches
// its own observers (runner/platform_family.h); this runs one host program per PE and turns
// what happened into the one result model (runner/result_json.h).
#pragma once
#include <cstdint>
#include <memory>
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

// What a run builds and tears down: the platform and the observers it reports into (runner.cpp).
struct RunState;

// What becomes of a finished run's state when run_scenario returns. The caller chooses: the
// default is what a process that runs or may run more (the service's worker, the tests, the
// benchmarks' forked children) needs.
enum class RunEnd {
  kTornDown,  // destroyed before run_scenario returns (results and trace are written first)
  kKept,      // handed back in RunOutput::kept, for a one-shot process that exits without
              // destroying it (sim/runner/one_shot_exit.h): at EP 256 the teardown frees ~4 GB
              // page by page and 3,328 coroutine stacks, work no output depends on
};

struct RunOutput {
  nlohmann::json result;
  bool passed = false;
  std::shared_ptr<RunState> kept;  // only with RunEnd::kKept; torn down when the last copy goes
};

// One simulation per process: call once. `observers` are attached to the models too (tests).
RunOutput run_scenario(const Scenario& s, const TraceOptions& trace, const std::vector<Observer*>& observers = {},
                       RunEnd end = RunEnd::kTornDown);

}  // namespace symsim
