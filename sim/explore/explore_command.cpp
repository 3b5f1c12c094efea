#include "sim/explore/explore_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "sim/explore/hazard_union.h"
#include "sim/explore/perturbation.h"
#include "sim/io/output_file.h"
#include "sim/io/path_component.h"
#include "sim/scenario/input_error.h"
#include "sim/sweep/sweep_runner.h"

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace symsim::explore {

namespace {

// "symsim run FILE --seed S --set A=B ..." for a schedule.
// "symsim run FILE --seed S --set A=B ..." for a schedule (`--explore 1 --seed S` with the
// user's own sets runs the same schedule).
std::string reproduce(const std::string& file, const sweep::Point& p) {
  std::string cmd = fmt::format("symsim run {} --seed {}", file, p.seed);
  for (const std::string& s : p.sets) cmd += " --set " + s;
  return cmd;
}

bool user_set(const LoadOptions& load, const std::string& key) {
  const std::string prefix = "platform." + key + "=";
  for (const std::string& s : load.sets)
    if (s.compare(0, prefix.size(), prefix) == 0) return true;
  return false;
}

constexpr uint64_t kMaxSchedules = 100000;

}  // namespace

int explore_main(const std::string& file, const LoadOptions& load, const ExploreOptions& o) {
  if (o.schedules < 1) throw InputError("--explore", "", "the number of schedules must be at least 1");
  // The same bound as a sweep grid: every schedule is a point with its own folder.
  if (o.schedules > kMaxSchedules)
    throw InputError("--explore", "", fmt::format("at most {} schedules in one exploration", kMaxSchedules));
  const Scenario s = load_scenario(file, load);
  const uint64_t first_seed = load.seed.value_or(1);

  sweep::SweepSpec spec;
  spec.file = file;
  spec.name = "explore " + s.name;
  spec.grid_keys = {"seed"};
  for (uint64_t i = 0; i < o.schedules; ++i) {
    sweep::Point p;
    p.index = i;
    p.scenario = file;
    p.scenario_path = fs::absolute(file).string();
    p.has_seed = true;
    p.seed = first_seed + i;
    p.params["seed"] = p.seed;
    p.sets = load.sets;
    for (const std::string& set : perturbation(s, p.seed)) {
      const std::string key = set.substr(std::string("platform.").size(), set.find('=') - std::string("platform.").size());
      if (!user_set(load, key)) p.sets.push_back(set);  // the user's own values stay
    }
    spec.points.push_back(std::move(p));
  }

  sweep::RunnerOptions ro;
  ro.jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  ro.out_dir = o.out_dir.empty() ? fs::path("symsim-out") / io::safe_path_component(s.name) / "explore"
                                  : fs::path(o.out_dir);
  ro.progress = isatty(STDERR_FILENO) != 0;
  ro.kernel_libs = o.kernel_libs;
  io::create_output_dir(ro.out_dir.string());
  const sweep::RunResult run = sweep::run_points(spec, spec.points, ro);
  if (run.stopped != sweep::StopReason::kNone) {
    std::cerr << fmt::format("symsim: exploration stopped after {} of {} schedules\n", run.rows.size(), o.schedules);
    return run.stopped == sweep::StopReason::kSigint ? 130 : 143;
  }
  std::map<uint64_t, std::string> status_of;  // point index -> status
  for (const ordered_json& r : run.rows) status_of[r["index"].get<uint64_t>()] = r["status"].get<std::string>();

  HazardUnion hazards;
  std::map<std::string, uint64_t> statuses;
  ordered_json runs = ordered_json::array();
  for (const sweep::Point& p : spec.points) {
    json result;
    const fs::path path = ro.out_dir / "points" / std::to_string(p.index) / "result.json";
    if (std::ifstream in(path); in) {
      try {
        result = json::parse(in);
      } catch (const json::exception&) {
        result = nullptr;
      }
    }
    const auto found = status_of.find(p.index);
    const std::string status = found == status_of.end() ? "crashed" : found->second;
    ++statuses[status];
    hazards.add(p.seed, result);
    runs.push_back({{"seed", p.seed},
                    {"sets", p.sets},
                    {"status", status},
                    {"hazards", result.is_object() ? result["hazards"].size() : 0}});
  }

  ordered_json doc;
  doc["symsim_explore"] = 1;
  doc["scenario"] = s.name;
  doc["schedules_tried"] = o.schedules;
  doc["seeds"] = {first_seed, first_seed + o.schedules - 1};
  doc["knobs"] = ordered_json::array();
  for (const Knob& k : knobs_of(s.platform_family))
    if (s.params.count(k.key)) doc["knobs"].push_back({{"key", k.key}, {"lo", k.lo}, {"hi", k.hi}, {"why", k.why}});
  doc["statuses"] = statuses;
  doc["hazards"] = ordered_json::array();
  std::string lines;
  size_t shown = 0;
  for (const UnionEntry* e : hazards.entries()) {
    const sweep::Point& point = spec.points[(e->observed ? e->observed_seed : e->first_seed) - first_seed];
    ordered_json h = e->observed ? e->observed_hazard : e->first;
    h["schedules"] = e->schedules;
    h["first_seed"] = e->first_seed;
    h["observed"] = e->observed;
    if (e->observed) h["observed_seed"] = e->observed_seed;
    h["reproduce"] = reproduce(file, point);
    if (shown++ == 20) lines += fmt::format("  ... {} more in explore.json\n", hazards.entries().size() - 20);
    if (shown <= 20)
      lines += fmt::format("  {} pe {} qp {} wqe {}{}: in {}/{} schedules; {}\n    reproduce: {}\n",
                         h.value("id", std::string()), h.value("pe", -1), h.value("qp", -1), h.value("wqe", int64_t{-1}),
                         h.contains("site") ? " (" + h["site"].get<std::string>() + ")" : "", e->schedules,
                         o.schedules,
                         e->observed ? fmt::format("observed with seed {}", e->observed_seed)
                                     : "never observed (reported by the ordering rules only)",
                         h["reproduce"].get<std::string>());
    doc["hazards"].push_back(std::move(h));
  }
  doc["runs"] = runs;
  io::write_file((ro.out_dir / "explore.json").string(), doc.dump(2) + "\n");

  const uint64_t passed = statuses["pass"], failed = statuses["fail"];
  const uint64_t broken = o.schedules - passed - failed;
  std::cout << fmt::format("explore {}: {} schedules tried (seeds {}..{}): {} pass, {} fail{}; {} distinct hazards\n",
                           s.name, o.schedules, first_seed, first_seed + o.schedules - 1, passed, failed,
                           broken ? fmt::format(", {} crashed or invalid", broken) : "", hazards.entries().size())
            << lines << "  explore: " << (ro.out_dir / "explore.json").string() << "\n";
  if (broken) return 3;
  return failed ? 1 : 0;
}

}  // namespace symsim::explore
