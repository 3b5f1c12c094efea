#include "sweep/sweep_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "scenario/input_error.h"
#include "scenario/scenario.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

namespace fs = std::filesystem;

namespace symsim::sweep {

namespace {

int summarize(const nlohmann::ordered_json& doc, const fs::path& out) {
  size_t passed = 0;
  for (const auto& row : doc["points"]) passed += row["status"] == "pass";
  const size_t n = doc["points"].size();
  std::cout << fmt::format("sweep {}: {} of {} points passed\n  results: {}  {}\n",
                           doc["name"].get<std::string>(), passed, n, (out / "results.csv").string(),
                           (out / "results.json").string());
  for (const auto& row : doc["points"])
    if (row["status"] != "pass")
      std::cout << fmt::format("  point {} ({} {}): {}{}\n", row["index"].get<size_t>(),
                               row["scenario"].get<std::string>(), row["params"].dump(),
                               row["status"].get<std::string>(),
                               row.contains("detail") ? " -- " + row["detail"].get<std::string>() : "");
  return passed == n ? 0 : 1;
}

}  // namespace

int sweep_main(const SweepOptions& o) {
  if (!o.merge.empty()) {
    if (o.out_dir.empty()) throw InputError("--merge", "", "give --out for the merged tables");
    return summarize(merge_shards(o.merge, o.out_dir), o.out_dir);
  }
  if (o.file.empty()) throw InputError("symsim sweep", "", "give a sweep file (or --merge DIR...)");
  const SweepSpec spec = load_sweep(o.file);
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::vector<Point> points = shard_points(spec, shard);
  // Every point must load before anything runs (a grid key that names nothing: exit 2).
  for (const Point& p : points) {
    LoadOptions load;
    load.sets = p.sets;
    if (p.has_seed) load.seed = p.seed;
    try {
      load_scenario(p.scenario_path, load);
    } catch (const InputError& e) {
      throw InputError(o.file, fmt::format("/points/{}", p.index),
                       fmt::format("{} {}: {}", p.scenario, p.params.dump(), e.what()));
    }
  }
  fs::path out = o.out_dir.empty() ? fs::path("symsim-sweep") / spec.name : fs::path(o.out_dir);
  if (o.out_dir.empty() && shard.count > 1) out /= fmt::format("shard-{}-of-{}", shard.index, shard.count);
  RunnerOptions ro;
  ro.jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ro.out_dir = out;
  ro.progress = !o.quiet;
  ro.kernel_libs = o.kernel_libs;
  if (!o.quiet)
    std::cerr << fmt::format("sweep {}: {} of {} points (shard {}/{}), {} at a time\n", spec.name,
                             points.size(), spec.points.size(), shard.index, shard.count, ro.jobs);
  const auto doc = results_document(spec, shard, run_points(spec, points, ro));
  write_results(out, doc);
  return summarize(doc, out);
}

}  // namespace symsim::sweep
