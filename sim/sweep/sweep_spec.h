// A sweep file (docs/sweeps.md): scenarios crossed with a grid of `--set` overrides (and
// seeds), expanded into numbered points in a fixed order, and sliced into shards.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace symsim::sweep {

// The most points a sweep may expand to: a bigger grid is refused (exit 2) before anything is
// allocated for it, and a results table claiming more is refused by --merge.
constexpr size_t kMaxSweepPoints = 1000000;

struct Point {
  size_t index = 0;
  std::string scenario;       // as written in the sweep file
  std::string scenario_path;  // resolved against the sweep file's folder
  nlohmann::ordered_json params = nlohmann::ordered_json::object();  // grid key -> value (and "seed")
  std::vector<std::string> sets;                                     // PATH=VALUE, fixed ones first
  bool has_seed = false;
  uint64_t seed = 0;
};

struct Column {
  std::string name;
  std::string pointer;  // JSON pointer into result.json
};

struct SweepSpec {
  std::string file;
  std::string name;
  std::vector<std::string> grid_keys;  // in file order ("seed" included when swept)
  std::vector<Column> columns;         // extra result columns
  std::vector<Point> points;           // every point, index order
  std::string hash;                    // identifies the expansion: shards of one sweep share it
};

// Reads and expands a sweep file; throws InputError naming the JSON pointer.
SweepSpec load_sweep(const std::string& path);

struct Shard {
  size_t index = 0;
  size_t count = 1;
};
// "I/M" with 0 <= I < M; throws InputError.
Shard parse_shard(const std::string& text);
// The points of `shard`: index % count == shard index (round-robin, so shards stay balanced
// when neighbouring points cost alike).
std::vector<Point> shard_points(const SweepSpec& spec, Shard shard);

}  // namespace symsim::sweep
