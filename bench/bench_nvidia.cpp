// symsim-bench nvidia SCENARIO [PATH=VALUE ...]: one NVIDIA scenario (with --set style
// overrides, e.g. pes=32), timed: wall and CPU time, events per second (CUDA-thread
// resumptions, the NVIDIA model's unit of work, and SystemC delta cycles) and peak RSS.
#include "bench/bench_nvidia.h"

#include <systemc>

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "bench/process_stats.h"
#include "sim/runner/one_shot_exit.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace symsim {

int bench_nvidia(const std::string& file, const std::vector<std::string>& sets, bench::Figures* figures,
                 RunEnd end) {
  LoadOptions o;
  o.sets = sets;
  const Scenario s = load_scenario(file, o);
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0_s = bench::cpu_seconds();
  const RunOutput out = run_scenario(s, {}, {}, end);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_s = bench::cpu_seconds() - cpu0_s;
  const auto& stats = out.result["stats"];
  const double resumes = stats["fibers"]["resumes"].get<double>();
  const double deltas = static_cast<double>(sc_core::sc_delta_count());
  std::cout << fmt::format("bench nvidia: scenario {} on {} GPUs: status {}\n", s.name, s.pes,
                           out.result["status"].get<std::string>());
  double nvlink_bytes = 0;  // each transfer crosses a GPU's up link and a peer's down link
  for (const auto& l : stats["nvlink"]) nvlink_bytes += l["bytes"].get<double>() / 2;
  std::cout << fmt::format("  simulated {:.1f} us; {} WQEs, {:.1f} MiB over RDMA, {:.1f} MiB on NVLink wires; {} fibers at peak\n",
                           out.result["sim_time_ns"].get<double>() / 1000, stats["totals"]["wqes"].get<uint64_t>(),
                           stats["totals"]["bytes"].get<double>() / (1 << 20), nvlink_bytes / (1 << 20),
                           stats["fibers"]["peak_live"].get<uint64_t>());
  std::cout << fmt::format("  wall {:.2f} s: {:.2f} M thread resumptions/s ({:.0f}), {:.2f} M SystemC deltas/s\n", wall_s,
                           resumes / wall_s / 1e6, resumes, deltas / wall_s / 1e6);
  for (const auto& k : stats["kernels"])
    std::cout << fmt::format("  kernel {}: {} launches, longest {:.1f} us simulated\n", k["kernel"].get<std::string>(),
                             k["launches"].get<int>(), k["max_us"].get<double>());
  // CPU time is the figure to compare on a shared machine; events per CPU-second should not
  // fall as GPUs are added, nor memory per GPU rise (docs/performance.md, LL dispatch at scale).
  std::cout << fmt::format("  CPU {:.2f} s: {:.3f} M thread resumptions per CPU-second\n", cpu_s, resumes / cpu_s / 1e6);
  std::cout << fmt::format("  peak RSS {:.0f} MiB ({:.1f} MiB per GPU)\n", bench::peak_rss_mib(), bench::peak_rss_mib() / s.pes);
  if (figures) {
    figures->status = out.result["status"].get<std::string>();
    figures->unit = "events";
    figures->work = resumes;
    figures->sim_us = out.result["sim_time_ns"].get<double>() / 1000;
  }
  const int rc = out.passed ? 0 : 1;
  exit_if_kept(out, rc);  // the bench writes no file: its figures are out
  return rc;
}

}  // namespace symsim
