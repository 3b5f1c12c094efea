// `symsim run SCENARIO --explore N`: runs the scenario under N schedules (seeds with timing
// perturbations within the model's legal range, explore/perturbation.h) in parallel worker
// processes, like a sweep, and reports the union of their hazards: for each, how many
// schedules reported it and the seed (with its overrides) of the first that observed it.
// Writes DIR/explore.json and DIR/points/<i>/result.json. Returns the exit code: 0 every
// schedule passed, 1 one failed, 3 a worker crashed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace symsim::explore {

struct ExploreOptions {
  uint64_t schedules = 0;
  int jobs = 0;          // 0: one per hardware thread
  std::string out_dir;   // default: symsim-out/<scenario name>/explore
  std::vector<std::string> kernel_libs;
};

int explore_main(const std::string& file, const LoadOptions& load, const ExploreOptions& options);

}  // namespace symsim::explore
