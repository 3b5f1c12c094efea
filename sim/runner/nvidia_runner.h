// Runs a scenario on an NVIDIA platform (family "nvidia"): builds the GPUs, NVLink and NICs,
// runs one host program per GPU through the CUDA shim, and writes result.json the same way
// the Ascend runner does (status, hazards, expectations, statistics, configuration).
#pragma once
#include <vector>

#include "models/core/observer.h"
#include "runner/runner.h"

namespace symsim {

RunOutput run_nvidia_scenario(const Scenario& s, const TraceOptions& trace, const std::vector<Observer*>& observers);

}  // namespace symsim
