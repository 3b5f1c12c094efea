// Runs one scenario on the GPU(s): one host thread per PE runs the kernel's own host driver
// (the same code the simulator runs), several times; the launches are timed with CUDA events
// and the host drivers' byte-for-byte checks become the result's expectations.
#pragma once
#include <nlohmann/json.hpp>

#include "hw/runner/hw_scenario.h"

namespace symsim::hw {

struct RunOptions {
  int repeats = 5;           // the first warms up (module load); the median of the rest is reported
  double timeout_s = 60;     // a repetition still running then is reported and the run stops
  size_t heap_mib = 256;     // symmetric heap per PE
  int gpus = 0;              // 0: every GPU present, at most one per PE
};

struct RunOutput {
  nlohmann::json result;     // result.json
  bool passed = false;
  bool timed_out = false;    // kernels may still be running: exit without cleaning up
};

RunOutput run_hw_scenario(const HwScenario& s, const RunOptions& options);

}  // namespace symsim::hw
