// symsim-bench put [SCENARIO] [--pairs N] [PATH=VALUE ...]: the put-heavy run with every hazard
// rule on and with every one off, in paired runs (one process each, on then off), and the
// figures that guard the checkers' cost: WQEs per CPU-second both ways and their CPU ratio
// (medians over the pairs). CPU time, not wall time: the machine may be shared.
#include "bench/bench_put.h"

#include <systemc>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "sim/checkers/catalog.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace symsim {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

bench::Figures put_run(const std::string& file, const std::vector<std::string>& sets, bool checkers) {
  LoadOptions o;
  o.sets = sets;
  Scenario s = load_scenario(file, o);
  if (!checkers)
    for (const CatalogEntry& e : hazard_catalog()) s.checkers[e.id] = false;
  const RunOutput out = run_scenario(s, {});
  bench::Figures f;
  f.name = checkers ? "put, checkers on" : "put, checkers off";
  f.status = out.result["status"].get<std::string>();
  f.unit = "WQEs";
  f.work = out.result["stats"]["totals"]["wqes"].get<double>();
  f.sim_us = out.result["sim_time_ns"].get<double>() / 1000;
  return f;
}

int bench_put(const std::string& file, const std::vector<std::string>& sets, int pairs) {
  std::vector<bench::Figures> on, off;
  std::vector<double> ratios;
  for (int i = 0; i < pairs; ++i) {
    on.push_back(bench::in_child([&] { return put_run(file, sets, true); }, true));
    off.push_back(bench::in_child([&] { return put_run(file, sets, false); }, true));
    ratios.push_back(off.back().cpu_s > 0 ? on.back().cpu_s / off.back().cpu_s : 0);
    std::cout << fmt::format("  pair {}: on {:.2f} s CPU, off {:.2f} s CPU, ratio {:.2f}\n", i + 1, on.back().cpu_s,
                             off.back().cpu_s, ratios.back());
  }
  const auto med = [](const std::vector<bench::Figures>& v, double (*get)(const bench::Figures&)) {
    std::vector<double> x;
    for (const bench::Figures& f : v) x.push_back(get(f));
    return median(x);
  };
  const auto cpu = [](const bench::Figures& f) { return f.cpu_s; };
  const auto wall = [](const bench::Figures& f) { return f.wall_s; };
  const auto rate = [](const bench::Figures& f) { return f.per_cpu_s(); };
  const auto rss = [](const bench::Figures& f) { return f.rss_mib; };
  const bench::Figures& first = on.front();
  std::cout << fmt::format("bench put: {} WQEs, simulated {:.1f} us, status {} (checkers on) / {} (off); median of {} "
                           "paired runs\n",
                           first.work, first.sim_us, first.status, off.front().status, pairs);
  std::cout << fmt::format("  checkers on : {:.2f} M WQEs per CPU-second (CPU {:.2f} s, wall {:.2f} s, peak RSS {:.0f} MiB)\n",
                           med(on, rate) / 1e6, med(on, cpu), med(on, wall), med(on, rss));
  std::cout << fmt::format("  checkers off: {:.2f} M WQEs per CPU-second (CPU {:.2f} s, wall {:.2f} s, peak RSS {:.0f} MiB)\n",
                           med(off, rate) / 1e6, med(off, cpu), med(off, wall), med(off, rss));
  std::cout << fmt::format("  checkers on/off CPU ratio {:.2f} (goals: >= 1.5 M WQEs per CPU-second with checkers on, "
                           "ratio <= 1.3)\n",
                           median(ratios));
  bool ok = true;
  for (const auto* v : {&on, &off})
    for (const bench::Figures& f : *v) ok = ok && f.status == "pass";
  return ok ? 0 : 1;
}

}  // namespace symsim
