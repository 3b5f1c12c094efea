#include "sim/sweep/sweep_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/schema_check.h"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace symsim::sweep {

namespace {

// FNV-1a, 64 bit: a stable hash (std::hash is not stable across builds).
uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// A file the sweep names (a scenario): regular and bounded, or an error at `pointer` of the sweep.
std::string read_text(const std::string& path, const std::string& from, const std::string& pointer) {
  try {
    return io::read_regular_file(path);
  } catch (const InputError& e) {
    throw InputError(from, pointer, e.what());
  }
}

// `--set` takes JSON values; strings go as they are (the scenario loader reads bare words).
std::string set_value(const ordered_json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

SweepSpec load_sweep(const std::string& path) {
  SweepSpec spec;
  spec.file = path;
  ordered_json doc;
  {
    // Strict first (a duplicate key is an error naming its pointer, the size is bounded), then
    // again keeping the file's key order, which orders the grid axes.
    const std::string text = io::read_regular_file(path);
    io::parse_strict_json(text, path);
    try {
      doc = ordered_json::parse(text);
    } catch (const ordered_json::exception& e) {
      throw InputError(path, "", std::string("not JSON: ") + e.what());
    }
  }
  if (!doc.is_object()) throw InputError(path, "", "a sweep file is a JSON object");
  // Keys, types and shapes: the published schema (docs/schema/sweep.schema.json).
  check_against_schema(SchemaKind::kSweep, doc, path);
  spec.name = doc["name"].get<std::string>();

  const ordered_json& scenarios = doc["scenarios"];
  const fs::path base = fs::path(path).parent_path();

  std::vector<std::string> fixed;
  if (doc.contains("set")) {
    for (const ordered_json& set : doc["set"]) fixed.push_back(set.get<std::string>());
  }
  // Axes: grid keys in file order, then seeds.
  std::vector<std::pair<std::string, std::vector<ordered_json>>> axes;
  if (doc.contains("grid")) {
    for (const auto& [k, v] : doc["grid"].items()) {
      if (k == "seed") throw InputError(path, "/grid/seed", "use \"seeds\" for seeds");
      axes.emplace_back(k, std::vector<ordered_json>(v.begin(), v.end()));
    }
  }
  if (doc.contains("seeds")) {
    const ordered_json& seeds = doc["seeds"];
    axes.emplace_back("seed", std::vector<ordered_json>(seeds.begin(), seeds.end()));
  }
  for (const auto& a : axes) spec.grid_keys.push_back(a.first);
  if (doc.contains("columns")) {
    for (const auto& [k, v] : doc["columns"].items()) spec.columns.push_back({k, v.get<std::string>()});
  }

  // The size first: a grid too big to run is refused before anything is allocated for it.
  uint64_t total = scenarios.size();
  for (const auto& a : axes) total = std::min<uint64_t>(total * a.second.size(), kMaxSweepPoints + 1);
  if (total > kMaxSweepPoints)
    throw InputError(path, axes.empty() ? "/scenarios" : "/grid",
                     fmt::format("the sweep expands to more than {} points (scenarios x grid axes x seeds); "
                                 "split it into several sweep files",
                                 kMaxSweepPoints));

  uint64_t h = fnv1a(spec.name);
  for (size_t si = 0; si < scenarios.size(); ++si) {
    const std::string written = scenarios[si].get<std::string>();
    const fs::path resolved = fs::path(written).is_absolute() ? fs::path(written) : base / written;
    h = fnv1a(read_text(resolved.string(), path, fmt::format("/scenarios/{}", si)), fnv1a(written, h));
    // Odometer over the axes: the last axis varies fastest.
    std::vector<size_t> at(axes.size(), 0);
    for (bool more = true; more;) {
      Point p;
      p.index = spec.points.size();
      p.scenario = written;
      p.scenario_path = resolved.lexically_normal().string();
      p.sets = fixed;
      for (size_t a = 0; a < axes.size(); ++a) {
        const ordered_json& v = axes[a].second[at[a]];
        p.params[axes[a].first] = v;
        if (axes[a].first == "seed") {
          p.has_seed = true;
          p.seed = v.get<uint64_t>();
        } else {
          p.sets.push_back(axes[a].first + "=" + set_value(v));
        }
      }
      spec.points.push_back(std::move(p));
      more = false;
      for (size_t a = axes.size(); a-- > 0;) {
        if (++at[a] < axes[a].second.size()) {
          more = true;
          break;
        }
        at[a] = 0;
      }
    }
  }
  for (const Point& p : spec.points)
    h = fnv1a(p.params.dump() + "|" + fmt::format("{}", fmt::join(p.sets, ";")), h);
  spec.hash = fmt::format("{:016x}", h);
  return spec;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard s;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    size_t used = 0;
    s.index = std::stoul(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("index");
    s.count = std::stoul(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("count");
  } catch (const std::logic_error&) {
    throw InputError("--shard", "", "expected I/M (e.g. 0/4), got '" + text + "'");
  }
  if (s.count == 0 || s.index >= s.count)
    throw InputError("--shard", "", "need 0 <= I < M, got '" + text + "'");
  return s;
}

std::vector<Point> shard_points(const SweepSpec& spec, Shard shard) {
  std::vector<Point> out;
  for (const Point& p : spec.points)
    if (p.index % shard.count == shard.index) out.push_back(p);
  return out;
}

}  // namespace symsim::sweep
