#include "runner/nvidia_runner.h"
#include "runner/expectation_report.h"

#include <systemc>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "checkers/hazard_log.h"
#include "io/output_file.h"
#include "kernel_registry.h"
#include "models/nvidia/nvidia_system.h"
#include "stats/stats_collector.h"
#include "symsim/cuda/runtime.h"
#include "trace/trace_writer.h"
#include "package/version.h"

namespace symsim {

using nlohmann::json;

namespace {

// Hazards the NVIDIA models find themselves, with addresses named deterministically.
class NvidiaHazards : public Observer {
 public:
  explicit NvidiaHazards(HazardLog& log) : m_log(log) {}
  void on_model_hazard(const ModelHazard& m) override {
    Hazard h;
    h.id = m.id;
    h.pe = m.pe;
    h.qp = m.qp;
    h.slot = m.slot;
    h.wqe = m.wqe;
    h.addr = m.addr ? nv::addr_text(m.addr) : "";
    h.time_ps = m.time_ps;
    h.detail = m.detail;
    h.observed = m.observed;
    m_log.report(std::move(h));
  }

 private:
  HazardLog& m_log;
};

json hazard_json(const Hazard& h) {
  json j = {{"id", h.id},   {"pe", h.pe},   {"qp", h.qp}, {"wqe", h.wqe}, {"addr", h.addr},
            {"time_ns", static_cast<double>(h.time_ps) / 1000.0}, {"detail", h.detail}};
  j["observed"] = h.observed;
  if (h.slot >= 0) j["slot"] = h.slot;
  if (h.repeats > 0) j["repeats"] = h.repeats;
  return j;
}

// Per kernel: how long its launches ran on their GPUs (from the end of the host's launch
// overhead, the GPU side of the launch included), each and at most, in the order the kernels
// first finished.
json kernel_times() {
  json out = json::array();
  std::vector<std::string> names;
  for (const cuda::KernelSpan& s : cuda::kernel_spans())
    if (std::find(names.begin(), names.end(), s.kernel) == names.end()) names.push_back(s.kernel);
  for (const std::string& name : names) {
    double max_us = 0, sum_us = 0;
    int n = 0;
    json per_launch = json::array();  // what a GPU's events around each launch would read
    for (const cuda::KernelSpan& s : cuda::kernel_spans()) {
      if (s.kernel != name) continue;
      const double us = ps_to_us(s.end_ps - s.start_ps);
      max_us = std::max(max_us, us);
      sum_us += us;
      ++n;
      per_launch.push_back({{"gpu", s.gpu}, {"us", std::round(us * 1e3) / 1e3}});
    }
    out.push_back({{"kernel", name}, {"launches", n}, {"max_us", std::round(max_us * 1e3) / 1e3},
                   {"mean_us", std::round(sum_us / n * 1e3) / 1e3}, {"per_launch", per_launch}});
  }
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

}  // namespace

RunOutput run_nvidia_scenario(const Scenario& s, const TraceOptions& trace_opts, const std::vector<Observer*>& observers) {
  const auto wall_start = std::chrono::steady_clock::now();
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  nv::NvidiaParams params;
  for (ParamInfo& info : params.table()) *info.value = s.params.at(info.key);
  nv::NvidiaSystem sys(params, s.pes, s.seed);
  nv::current_system() = &sys;

  CheckerConfig checker_config;
  for (const auto& [id, on] : s.checkers) checker_config.set(id, on);
  HazardLog hazards(checker_config);
  NvidiaHazards model_hazards(hazards);
  StatsCollector stats;
  sys.hooks().attach(&model_hazards);
  sys.hooks().attach(&stats);
  for (Observer* o : observers) sys.hooks().attach(o);
  std::unique_ptr<TraceWriter> trace;
  if (!trace_opts.path.empty()) {
    TraceFilter f;
    f.pes = trace_opts.pes;
    f.window_begin_ps = trace_opts.window_begin_ns * 1000;
    f.window_end_ps = trace_opts.window_end_ns == UINT64_MAX ? UINT64_MAX : trace_opts.window_end_ns * 1000;
    trace = std::make_unique<TraceWriter>(f, &sys.ib(), OpcodeSet::kMlx5);
    sys.hooks().attach(trace.get());
    for (const auto& l : sys.nvlink().links()) trace->name_link(l->id(), l->name());
  }

  const KernelInfo& kernel = *KernelRegistry::instance().find(s.kernel);
  const KernelArgs args(s.args, s.blocks);
  std::vector<std::string> host_errors;
  cuda::start(sys, [&](int rank) {
    try {
      kernel.host_main(rank, args);
    } catch (const std::exception& e) {
      host_errors.push_back(fmt::format("gpu {}: host program failed: {}", rank, e.what()));
    }
  });

  const Ps limit_ps = ns_to_ps(params.sim_max_time_us * 1000.0);
  sc_core::sc_start(sc_core::sc_time::from_value(limit_ps), sc_core::SC_EXIT_ON_STARVATION);
  const Ps end_ps = static_cast<Ps>(sc_core::sc_time_stamp().value());
  sys.visibility().settle(UINT64_MAX);

  // Hangs: launches the models stopped (deadlock), and programs still running at the end.
  for (const nv::NvidiaSystem::Hang& h : sys.hangs())
    hazards.report({h.kind, h.gpu, -1, -1, -1, -1, "", h.time_ps, "", join(h.waits), 0});
  if (!cuda::all_hosts_finished()) {
    const bool timed_out = sc_core::sc_pending_activity();
    for (int g = 0; g < sys.n_gpus(); ++g) {
      std::vector<std::string> waits = sys.scheduler(g).describe_waits(12);
      if (waits.empty()) continue;
      hazards.report({timed_out ? "timeout" : "deadlock", g, -1, -1, -1, -1, "", end_ps, "",
                      (timed_out ? fmt::format("still running at the {} us limit: ", params.sim_max_time_us) : "") + join(waits), 0});
    }
    if (!timed_out && hazards.all().empty())
      hazards.report({"deadlock", -1, -1, -1, -1, -1, "", end_ps, "", join(cuda::host_waits()), 0});
  }

  ExpectationReport report;
  const json checks = report.host_checks(s.expect, host_errors);
  json traps = json::array();
  for (const cuda::LaunchError& e : cuda::launch_errors()) {
    if (e.error.rfind("trap", 0) != 0) continue;  // deadlocks and timeouts are hazards
    traps.push_back({{"pe", e.gpu}, {"kernel", e.kernel}, {"reason", e.error}});
    if (!s.expect.trap)
      report.expect(false, fmt::format("gpu {}: kernel {} ran without trapping", e.gpu, e.kernel), e.error);
  }
  if (s.expect.trap)
    report.expect(!traps.empty(), "a kernel trapped (expect.trap)",
                  traps.empty() ? "no kernel trapped" : traps[0]["reason"].get<std::string>());
  report.hazards_and_time(s.expect, hazards, end_ps, !host_errors.empty());

  json hazard_list = json::array();
  for (const Hazard& h : hazards.all()) {
    hazard_list.push_back(hazard_json(h));
    if (trace) trace->hazard(h.pe, h.id, h.time_ps, h.detail);
  }
  json stats_json = stats.to_json(end_ps, sys.ib());
  json nvlink = json::array();
  for (const auto& l : sys.nvlink().links()) {
    if (l->bytes() == 0) continue;
    nvlink.push_back({{"name", l->name()},
                      {"bytes", l->bytes()},
                      {"transfers", l->messages()},
                      {"busy_ns", ps_to_ns(l->busy_ps())},
                      {"utilization", end_ps ? std::round(1e4 * static_cast<double>(l->busy_ps()) / static_cast<double>(end_ps)) / 1e4 : 0.0}});
  }
  stats_json["nvlink"] = nvlink;
  stats_json["kernels"] = kernel_times();
  uint64_t resumes = 0;
  for (int g = 0; g < sys.n_gpus(); ++g) resumes += sys.scheduler(g).resumes();
  stats_json["fibers"] = {{"stack_bytes", sys.stacks().stack_bytes()},
                          {"resumes", resumes},
                          {"peak_live", sys.stacks().peak_in_use()},
                          {"stack_overflows", sys.stacks().overflows()}};
  if (sys.stacks().overflows() > 0)
    report.expect(false, "no CUDA-thread fiber overflowed its stack",
           fmt::format("{} fibers overflowed their {} B stacks (raise sim.fiber_stack_bytes)", sys.stacks().overflows(),
                       sys.stacks().stack_bytes()));
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  RunOutput out;
  out.passed = report.ok();
  out.result = {{"symsim", 1},
                {"scenario", s.name},
                {"status", report.ok() ? "pass" : "fail"},
                {"seed", s.seed},
                {"tool", tool_json()},
                {"sim_time_ns", static_cast<double>(end_ps) / 1000.0},
                {"wall_s", wall_s},
                {"hazards", hazard_list},
                {"expectations", report.list()},
                {"checks", checks},
                {"traps", traps},
                {"stats", stats_json},
                {"config", s.effective}};
  // Checked and atomic: a trace is whole or absent (io::OutputError names the path).
  if (trace) io::write_file(trace_opts.path, [&](std::ostream& os) { trace->write(os); });
  cuda::stop();
  return out;
}

}  // namespace symsim
