// Benchmarks (not tests): simulator speed and memory, printed as figures.
//   symsim-bench table   one line each for put (checkers on and off), setup, MoE EP 16 and NVIDIA LL
//                        dispatch EP 16: wall, CPU, WQEs or events per CPU-second, peak RSS
//   symsim-bench put [SCENARIO] [--pairs N] [PATH=VALUE ...]   put-heavy run with every checker on and
//                        with every one off (paired runs): WQEs per CPU-second and the on/off CPU ratio;
//                        --only on|off: one run in this process, for callgrind
//   symsim-bench setup [PES] [HEAP_MIB]   platform + SHMEM set-up of many PEs: wall time and peak RSS
//   symsim-bench nvidia SCENARIO [PATH=VALUE ...]   an NVIDIA scenario: wall, events/s, peak RSS
//   symsim-bench moe SCENARIO [PATH=VALUE ...]   MoE dispatch + combine: wall, CPU, WQEs/s, peak RSS
// One simulation per process, as SystemC requires.
#include <systemc>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>

#include "kernels/udma/common/udma_host_common.h"
#include "bench/bench_figures.h"
#include "bench/bench_moe.h"
#include "bench/bench_nvidia.h"
#include "bench/bench_put.h"
#include "bench/process_stats.h"
#include "kernels/registry/kernel_registry.h"
#include "models/platform/ascend_system.h"
#include "sim/runner/huge_heap.h"
#include "sim/runner/one_shot_exit.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "symsim/shim_runtime.h"

using namespace symsim;

namespace {

using bench::peak_rss_mib;
using bench::seconds_since;

int bench_setup(int pes, uint64_t heap_mib, bench::Figures* figures = nullptr) {
  const Scenario s = load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/udma_put_2pe.json");
  AscendParams p;
  for (ParamInfo& i : p.table()) *i.value = s.params.at(i.key);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  const auto t0 = std::chrono::steady_clock::now();
  AscendSystem sys(p, pes, 1);
  int ready = 0;
  shim::start(sys, [&](int pe) {
    aclrtStream stream = udma_example::setup(pe, heap_mib << 20, 1);
    ++ready;
    udma_example::teardown(stream);
  });
  sc_core::sc_start();
  const double wall = seconds_since(t0);
  std::cout << fmt::format("bench setup: {} PEs with a {} MiB symmetric heap each ({} QPs per PE)\n", pes, heap_mib, pes);
  std::cout << fmt::format("  {} PEs initialised in {:.2f} s wall, peak RSS {:.0f} MiB\n", ready, wall, peak_rss_mib());
  shim::stop();
  if (figures) {
    figures->status = ready == pes ? "pass" : "fail";
    figures->unit = "PEs";
    figures->work = ready;
  }
  return ready == pes ? 0 : 1;
}

// The one-screen table: each benchmark in its own process, quiet, one row each.
int bench_table() {
  const std::string src = SYMSIM_SOURCE_DIR;
  using Run = std::function<bench::Figures()>;
  const auto named = [](const char* name, const std::function<void(bench::Figures*)>& run) -> Run {
    return [name, run] {
      bench::Figures f;
      run(&f);
      f.name = name;
      return f;
    };
  };
  const std::string put = src + "/bench/scenarios/put_heavy.json";
  const std::vector<Run> runs = {
      [put] { return put_run(put, {}, true); },
      [put] { return put_run(put, {}, false); },
      named("setup, 256 PEs x 1 GiB heap", [](bench::Figures* f) { bench_setup(256, 1024, f); }),
      named("MoE EP 16 direct", [src](bench::Figures* f) { bench_moe(src + "/bench/scenarios/moe/moe_ep16_direct.json", {}, f); }),
      named("NVIDIA LL dispatch EP 16",
            [src](bench::Figures* f) { bench_nvidia(src + "/scenarios/nvidia/ll_dispatch_ep16.json", {}, f); }),
  };
  std::cout << fmt::format("{:<30} {:>6} {:>8} {:>7} {:>11} {:>14} {:>9}\n", "benchmark", "status", "wall s", "CPU s",
                           "work", "per CPU-s", "peak RSS");
  bool ok = true;
  std::vector<bench::Figures> rows;
  for (const Run& run : runs) {
    const bench::Figures f = rows.emplace_back(bench::in_child(run, true));
    ok = ok && f.status == "pass";
    std::cout << fmt::format("{:<30} {:>6} {:>8.2f} {:>7.2f} {:>11} {:>14} {:>5.0f} MiB\n", f.name, f.status, f.wall_s,
                             f.cpu_s, fmt::format("{:.0f} {}", f.work, f.unit),
                             f.per_cpu_s() >= 1e5 ? fmt::format("{:.3f} M", f.per_cpu_s() / 1e6)
                                                  : fmt::format("{:.0f}", f.per_cpu_s()),
                             f.rss_mib);
    std::cout.flush();
  }
  std::cout << fmt::format("put, checkers on/off CPU ratio: {:.2f} (goals: >= 1.5 M WQEs per CPU-s on, ratio <= 1.3)\n",
                           rows[1].cpu_s > 0 ? rows[0].cpu_s / rows[1].cpu_s : 0);
  std::cout << "(events: CUDA-thread resumptions; every run in its own process; CPU = user + system)\n";
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  symsim::reexec_with_huge_heap(argv);  // as symsim does (sim/cli/main.cpp)
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  const std::string what = argc > 1 ? argv[1] : "put";
  if (what == "table") return bench_table();
  if (what == "put") {
    std::string file = std::string(SYMSIM_SOURCE_DIR) + "/bench/scenarios/put_heavy.json";
    std::vector<std::string> sets;
    int pairs = 1;
    std::string only;  // "on" / "off": one run in this process (for callgrind)
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--pairs" && i + 1 < argc) {
        pairs = std::max(1, std::atoi(argv[++i]));
      } else if (a == "--only" && i + 1 < argc && (argv[i + 1] == std::string("on") || argv[i + 1] == std::string("off"))) {
        only = argv[++i];
      } else if (a.find('=') != std::string::npos) {
        sets.push_back(a);
      } else {
        file = a;
      }
    }
    if (!only.empty()) {
      const bench::Figures f = put_run(file, sets, only == "on");
      std::cout << fmt::format("bench put, {}: {:.0f} WQEs, status {}\n", f.name, f.work, f.status);
      return f.status == "pass" ? 0 : 1;
    }
    return bench_put(file, sets, pairs);
  }
  if (what == "setup") return bench_setup(argc > 2 ? std::stoi(argv[2]) : 256, argc > 3 ? std::stoull(argv[3]) : 1024);
  // One run each, ended as `symsim run` ends (sim/runner/one_shot_exit.h). put and table keep
  // their teardown: their figures are read against earlier sessions' with it.
  if (what == "nvidia" && argc > 2)
    return bench_nvidia(argv[2], std::vector<std::string>(argv + 3, argv + argc), nullptr, one_shot_run_end());
  if (what == "moe" && argc > 2)
    return bench_moe(argv[2], std::vector<std::string>(argv + 3, argv + argc), nullptr, one_shot_run_end());
  std::cerr << "usage: symsim-bench table | put [SCENARIO] [--pairs N] [--only on|off] [PATH=VALUE ...] | setup [PES] [HEAP_MIB] | "
               "nvidia SCENARIO [PATH=VALUE ...] | moe SCENARIO [PATH=VALUE ...]\n";
  return 2;
}
