#include "sim/sweep/sweep_resume.h"

#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "sim/io/output_file.h"
#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/sweep/results_check.h"
#include "sim/sweep/sweep_table.h"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace symsim::sweep {

namespace {

ordered_json marker(const SweepSpec& spec, Shard shard) {
  return {{"symsim_sweep", 1},
          {"name", spec.name},
          {"sweep_hash", spec.hash},
          {"shard", {{"index", shard.index}, {"count", shard.count}}}};
}

// A small JSON file of ours (sweep.json, row.json), or nullopt when absent or unreadable.
std::optional<ordered_json> read_json_file(const fs::path& p) {
  if (!fs::exists(p)) return std::nullopt;
  try {
    return ordered_json::parse(io::read_regular_file(p.string(), size_t{1} << 20));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void write_sweep_marker(const fs::path& out, const SweepSpec& spec, Shard shard) {
  io::create_output_dir(out.string());
  write_text_file(out / "sweep.json", marker(spec, shard).dump(2) + "\n");
}

std::map<size_t, ordered_json> finished_rows(const fs::path& out, const SweepSpec& spec, Shard shard,
                                             const std::vector<Point>& points) {
  const fs::path file = out / "sweep.json";
  const auto found = read_json_file(file);
  if (!found)
    throw InputError("--resume", "",
                     fmt::format("{} holds no sweep to resume ({} missing or not JSON)", out.string(), file.string()));
  if (*found != marker(spec, shard))
    throw InputError(file.string(), "",
                     fmt::format("holds another sweep or shard ({}), not {} {} shard {}/{}: the sweep file or "
                                 "a scenario changed since, or --shard differs",
                                 found->dump(), spec.name, spec.hash, shard.index, shard.count));
  std::map<size_t, ordered_json> rows;
  for (const Point& p : points) {
    const fs::path row_file = out / "points" / std::to_string(p.index) / "row.json";
    if (!fs::exists(row_file)) continue;
    const auto row = read_json_file(row_file);
    try {
      if (!row) throw InputError(row_file.string(), "", "not JSON");
      check_row(*row, row_file.string(), "", spec.points.size());
      if ((*row)["index"] != p.index || (*row)["params"] != p.params || (*row)["scenario"] != p.scenario)
        throw InputError(row_file.string(), "", "is the row of another point");
    } catch (const InputError& e) {
      std::cerr << fmt::format("symsim sweep: {}; running point {} again\n", e.what(), p.index);
      continue;
    }
    rows.emplace(p.index, *row);
  }
  return rows;
}

}  // namespace symsim::sweep
