// Resuming a sweep: its output folder records which sweep and shard it holds (sweep.json), and
// every finished point its row (points/<index>/row.json), so `--resume` after Ctrl-C, a
// --timeout or a kill -9 reruns only the points that have no row.
#pragma once
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace symsim::sweep {

// Writes <out>/sweep.json naming the sweep (hash) and shard.
void write_sweep_marker(const std::filesystem::path& out, const SweepSpec& spec, Shard shard);

// The rows of `points` already finished in `out`, by index. Throws InputError when `out` holds
// no sweep or another sweep or shard.
std::map<size_t, nlohmann::ordered_json> finished_rows(const std::filesystem::path& out, const SweepSpec& spec,
                                                       Shard shard, const std::vector<Point>& points);

}  // namespace symsim::sweep
