// symsim-bench moe SCENARIO [PATH=VALUE ...]: MoE dispatch + combine, one machine-readable line
// (wall and CPU time, SystemC deltas/s, WQEs/s, peak RSS, simulated latencies) and the latency
// breakdown of each kernel; bench/moe_scale.sh runs it per EP size and fits wall time to WQEs.
#include "bench/bench_moe.h"

#include <systemc>

#include <fmt/format.h>

#include <iostream>

#include "kernels/moe/host/moe_timing.h"
#include "bench/process_stats.h"
#include "sim/runner/one_shot_exit.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace symsim {

int bench_moe(const std::string& file, const std::vector<std::string>& sets, bench::Figures* figures,
              RunEnd end) {
  LoadOptions o;
  o.sets = sets;
  const Scenario s = load_scenario(file, o);
  const auto t0 = std::chrono::steady_clock::now();
  const RunOutput out = run_scenario(s, {}, {}, end);
  const double wall_s = bench::seconds_since(t0);
  const auto& totals = out.result["stats"]["totals"];
  const double wqes = totals["wqes"].get<double>();
  const double deltas = static_cast<double>(sc_core::sc_delta_count());
  const moe::MoeTimes& t = moe::moe_times();
  std::cout << fmt::format(
      "moe scenario={} status={} ep={} variant={} wqes={:.0f} doorbells={} cqes={} bytes={} dispatch_us={:.2f} "
      "combine_us={:.2f} wall_s={:.2f} cpu_s={:.2f} deltas_per_s={:.0f} wqes_per_s={:.0f} peak_rss_mib={:.0f}\n",
      s.name, out.result["status"].get<std::string>(), s.pes, s.args.at("variant"), wqes,
      totals["doorbells"].get<uint64_t>(), totals["cqes"].get<uint64_t>(), totals["bytes"].get<uint64_t>(),
      t.kernel[moe::kDispatch].us(), t.kernel[moe::kCombine].us(), wall_s, bench::cpu_seconds(), deltas / wall_s,
      wqes / wall_s, bench::peak_rss_mib());
  std::cout << "  " << moe::describe(t, moe::kDispatch) << "\n  " << moe::describe(t, moe::kCombine) << "\n";
  if (figures) {
    figures->status = out.result["status"].get<std::string>();
    figures->unit = "WQEs";
    figures->work = wqes;
    figures->sim_us = out.result["sim_time_ns"].get<double>() / 1000;
  }
  const int rc = out.passed ? 0 : 1;
  exit_if_kept(out, rc);  // the bench writes no file: its figures are out
  return rc;
}

}  // namespace symsim
