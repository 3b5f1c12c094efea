// Runs sweep points in parallel local worker processes (`symsim worker`, one per point, at
// most `jobs` at once), with a progress bar on stderr, and collects their rows.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "sweep/sweep_spec.h"

namespace symsim::sweep {

struct RunnerOptions {
  int jobs = 1;
  std::filesystem::path out_dir;  // points/<index>/ go here
  bool progress = true;
  std::vector<std::string> kernel_libs;  // passed to every worker
};

// Runs `points` and returns their results.json rows (index order). Ctrl-C stops the workers.
std::vector<nlohmann::ordered_json> run_points(const SweepSpec& spec, const std::vector<Point>& points,
                                               const RunnerOptions& options);

}  // namespace symsim::sweep
