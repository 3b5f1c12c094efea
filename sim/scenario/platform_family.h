// Platform families: what a preset's "family" selects. A family declares its parameter table
// (the keys a preset must set, with ranges), the parameter that bounds kernel.blocks, the
// parameters that must be powers of two, and the function that runs a scenario on it.
#pragma once
#include <string>
#include <vector>

#include "models/core/observer.h"
#include "models/platform/param_table.h"

namespace symsim {

struct Scenario;
struct TraceOptions;
struct RunOutput;

struct PlatformFamily {
  const char* name;
  // The parameter table over a scratch object (keys, docs, ranges).
  ParamTable (*table)();
  const char* blocks_param;
  std::vector<const char*> pow2_params;
  // Runs one scenario (one simulation per process).
  RunOutput (*run)(const Scenario&, const TraceOptions&, const std::vector<Observer*>&);
};

const PlatformFamily* find_family(const std::string& name);
const std::vector<PlatformFamily>& platform_families();

}  // namespace symsim
