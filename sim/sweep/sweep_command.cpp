#include "sim/sweep/sweep_command.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <thread>

#include "sim/io/output_file.h"
#include "sim/io/path_component.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep/child_guard.h"
#include "sim/sweep/sweep_resume.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_spec.h"
#include "sim/sweep/sweep_table.h"

namespace fs = std::filesystem;

namespace symsim::sweep {

namespace {

// The longest wall-time limit accepted (a year): beyond it a limit is a typo, and a duration
// that large would overflow the clock.
constexpr double kMaxLimitS = 365.0 * 24 * 3600;

void check_limit(double seconds, const char* option) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > kMaxLimitS)
    throw InputError(option, "", fmt::format("expected seconds in 0..{} (0: no limit), got {}", kMaxLimitS, seconds));
}

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

const char* reason_name(StopReason r) {
  switch (r) {
    case StopReason::kSigint: return "SIGINT";
    case StopReason::kSigterm: return "SIGTERM";
    case StopReason::kTimeLimit: return "timeout";
    case StopReason::kNone: break;
  }
  return "";
}

int stopped_exit_code(StopReason r) {
  return r == StopReason::kSigint ? 130 : r == StopReason::kSigterm ? 143 : kExitTimeLimit;
}

int sweep_or_merge(const SweepOptions& o) {
  if (!o.merge.empty()) {
    if (o.out_dir.empty()) throw InputError("--merge", "", "give --out for the merged tables");
    return summarize(merge_shards(o.merge, o.out_dir), o.out_dir);
  }
  if (o.file.empty()) throw InputError("symsim sweep", "", "give a sweep file (or --merge DIR...)");
  check_limit(o.point_timeout_s, "--point-timeout");
  check_limit(o.timeout_s, "--timeout");
  const auto started = std::chrono::steady_clock::now();
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
  // The default folder is named after the sweep's name, made one harmless path component
  // (a name of ".." must not put the tables in the working folder's parent).
  fs::path out = o.out_dir.empty() ? fs::path("symsim-sweep") / io::safe_path_component(spec.name)
                                   : fs::path(o.out_dir);
  if (o.out_dir.empty() && shard.count > 1) out /= fmt::format("shard-{}-of-{}", shard.index, shard.count);

  std::map<size_t, nlohmann::ordered_json> done;
  if (o.resume) done = finished_rows(out, spec, shard, points);
  std::vector<Point> todo;
  for (const Point& p : points)
    if (!done.count(p.index)) todo.push_back(p);
  write_sweep_marker(out, spec, shard);

  ChildGuard guard;  // a kill -9 of the sweep takes its workers with it
  RunnerOptions ro;
  ro.jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ro.out_dir = out;
  ro.progress = !o.quiet;
  ro.kernel_libs = o.kernel_libs;
  ro.point_timeout_s = o.point_timeout_s;
  ro.guard = &guard;
  if (o.timeout_s > 0)
    ro.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(o.timeout_s));
  if (!o.quiet)
    std::cerr << fmt::format("sweep {}: {} of {} points (shard {}/{}){}, {} at a time\n", spec.name,
                             todo.size(), spec.points.size(), shard.index, shard.count,
                             done.empty() ? "" : fmt::format(", {} already done", done.size()), ro.jobs);
  RunResult run = run_points(spec, todo, ro);
  for (auto& [index, row] : done) run.rows.push_back(std::move(row));
  const auto doc = results_document(spec, shard, std::move(run.rows), reason_name(run.stopped));
  write_results(out, doc);
  const int code = summarize(doc, out);
  if (run.stopped == StopReason::kNone) return code;
  std::cerr << fmt::format(
      "symsim sweep: stopped by {}: {} points not run; the table is marked partial. Run the rest with: "
      "symsim sweep {} --resume --out {}{}\n",
      reason_name(run.stopped), doc["partial"]["points_missing"].get<size_t>(), o.file, out.string(),
      o.shard.empty() ? "" : " --shard " + o.shard);
  return stopped_exit_code(run.stopped);
}

}  // namespace

int sweep_main(const SweepOptions& o) {
  try {
    return sweep_or_merge(o);
  } catch (const io::OutputError& e) {
    // A table, row or copied result that could not be written: nothing partial is left.
    std::cerr << "symsim sweep: " << e.what() << "\n";
    return e.exit_code();
  }
}

}  // namespace symsim::sweep
