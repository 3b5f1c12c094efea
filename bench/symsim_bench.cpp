// Benchmarks (not tests): simulator speed and memory, printed as figures.
//   symsim-bench put [SCENARIO]   put-heavy run: WQEs per wall second, SystemC deltas per second, peak RSS
//   symsim-bench setup [PES] [HEAP_MIB]   platform + SHMEM set-up of many PEs: wall time and peak RSS
//   symsim-bench nvidia SCENARIO [PATH=VALUE ...]   an NVIDIA scenario: wall, events/s, peak RSS
//   symsim-bench moe SCENARIO [PATH=VALUE ...]   MoE dispatch + combine: wall, CPU, WQEs/s, peak RSS
// One simulation per process, as SystemC requires.
#include <systemc>

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <string>

#include "../kernels/udma/common/udma_host_common.h"
#include "bench_moe.h"
#include "bench_nvidia.h"
#include "process_stats.h"
#include "kernel_registry.h"
#include "models/platform/ascend_system.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "symsim/shim_runtime.h"

using namespace symsim;

namespace {

using bench::peak_rss_mib;
using bench::seconds_since;

int bench_put(const std::string& file) {
  const Scenario s = load_scenario(file);
  const auto t0 = std::chrono::steady_clock::now();
  const RunOutput out = run_scenario(s, {});
  const double wall = seconds_since(t0);
  const auto& totals = out.result["stats"]["totals"];
  const double wqes = totals["wqes"].get<double>();
  const double deltas = static_cast<double>(sc_core::sc_delta_count());
  std::cout << fmt::format("bench put: scenario {} status {}\n", s.name, out.result["status"].get<std::string>());
  std::cout << fmt::format("  WQEs {:.0f}, payload {:.1f} MiB, simulated {:.1f} us\n", wqes,
                           totals["bytes"].get<double>() / (1 << 20), out.result["sim_time_ns"].get<double>() / 1000);
  std::cout << fmt::format("  wall {:.2f} s: {:.2f} M WQEs/s, {:.2f} M SystemC deltas/s\n", wall, wqes / wall / 1e6,
                           deltas / wall / 1e6);
  std::cout << fmt::format("  peak RSS {:.0f} MiB\n", peak_rss_mib());
  return out.passed ? 0 : 1;
}

int bench_setup(int pes, uint64_t heap_mib) {
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
  return ready == pes ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  const std::string what = argc > 1 ? argv[1] : "put";
  if (what == "put") return bench_put(argc > 2 ? argv[2] : std::string(SYMSIM_SOURCE_DIR) + "/bench/scenarios/put_heavy.json");
  if (what == "setup") return bench_setup(argc > 2 ? std::stoi(argv[2]) : 256, argc > 3 ? std::stoull(argv[3]) : 1024);
  if (what == "nvidia" && argc > 2) return bench_nvidia(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  if (what == "moe" && argc > 2) return bench_moe(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  std::cerr << "usage: symsim-bench put [SCENARIO] | setup [PES] [HEAP_MIB] | nvidia SCENARIO [PATH=VALUE ...] | "
               "moe SCENARIO [PATH=VALUE ...]\n";
  return 2;
}
