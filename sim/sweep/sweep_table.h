// A sweep's results: one row per point, written as results.json (the canonical form) and
// results.csv (derived from it). Shards merge by point index into the unsharded tables.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace symsim::sweep {

// Status and row exit code of a point stopped by --point-timeout; also the exit code of a sweep
// stopped by --timeout (as timeout(1)).
inline constexpr const char* kTimeoutStatus = "timeout";
inline constexpr int kExitTimeLimit = 124;

// How one point ended; `result` is its result.json (null when the worker wrote none).
struct PointOutcome {
  std::string status;  // pass, fail, invalid, error, crashed, timeout
  int exit_code = 3;
  std::string detail;
  nlohmann::json result;
};

// The results.json row of a point.
nlohmann::ordered_json point_row(const SweepSpec& spec, const Point& point, const PointOutcome& outcome);

// The results.json document of `rows` (sorted by index here). A non-empty `partial_reason`
// (the sweep was stopped: "SIGINT", "SIGTERM", "timeout") adds "partial" with the reason and
// the number of points missing.
nlohmann::ordered_json results_document(const SweepSpec& spec, Shard shard,
                                        std::vector<nlohmann::ordered_json> rows,
                                        const std::string& partial_reason = "");

// Writes results.json and results.csv into `dir`, each checked and atomically (a temporary
// name renamed into place): a failed write leaves no partial table.
void write_results(const std::filesystem::path& dir, const nlohmann::ordered_json& doc);

// Writes `text` to `path` checked and atomically.
void write_text_file(const std::filesystem::path& path, const std::string& text);

// Joins shard result folders into `out` (results.json, results.csv and points/<index>/result.json):
// identical to the unsharded run's tables. Throws InputError when the shards are not one
// complete sweep (different sweeps, a shard twice, points missing, a malformed table, a point's
// result.json missing or not JSON).
nlohmann::ordered_json merge_shards(const std::vector<std::string>& dirs, const std::filesystem::path& out);

}  // namespace symsim::sweep
