// Runs sweep points in parallel local worker processes (`symsim worker`, one per point, at
// most `jobs` at once), with a progress bar on stderr, and collects their rows. Each finished
// point's row is also kept as points/<index>/row.json, so an interrupted sweep can resume.
#pragma once
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace symsim::sweep {

class ChildGuard;

struct RunnerOptions {
  int jobs = 1;
  std::filesystem::path out_dir;  // points/<index>/ go here
  bool progress = true;
  std::vector<std::string> kernel_libs;  // passed to every worker
  double point_timeout_s = 0;            // > 0: a point running longer is stopped (status timeout)
  // Set: no point starts after it, and running ones are stopped (the sweep's --timeout).
  std::optional<std::chrono::steady_clock::time_point> deadline;
  ChildGuard* guard = nullptr;  // workers registered here die with the sweep
};

// Why a sweep stopped before every point ran.
enum class StopReason { kNone, kSigint, kSigterm, kTimeLimit };

struct RunResult {
  std::vector<nlohmann::ordered_json> rows;  // the points that finished, in finishing order
  StopReason stopped = StopReason::kNone;
};

// Runs `points`. SIGINT/SIGTERM or the deadline stop the workers still running; the rows of
// the finished points are returned with the reason.
RunResult run_points(const SweepSpec& spec, const std::vector<Point>& points, const RunnerOptions& options);

}  // namespace symsim::sweep
