#include "runner/runner.h"
#include "runner/expectation_report.h"
#include "scenario/platform_family.h"

#include <systemc>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <tuple>

#include "checkers/checker_set.h"
#include "checkers/hazard_log.h"
#include "faults/fault_injector.h"
#include "io/output_file.h"
#include "kernel_registry.h"
#include "models/platform/ascend_system.h"
#include "stats/stats_collector.h"
#include "symsim/shim_runtime.h"
#include "trace/trace_writer.h"
#include "package/version.h"

namespace symsim {

using nlohmann::json;

namespace {

AscendParams to_params(const Scenario& s) {
  AscendParams p;
  for (ParamInfo& info : p.table()) *info.value = s.params.at(info.key);
  return p;
}

json hazard_json(const Hazard& h) {
  json j = {{"id", h.id}, {"pe", h.pe}, {"qp", h.qp}, {"wqe", h.wqe}, {"addr", h.addr},
            {"time_ns", static_cast<double>(h.time_ps) / 1000.0}, {"detail", h.detail}};
  j["observed"] = h.observed;
  if (h.slot >= 0) j["slot"] = h.slot;
  if (h.core >= 0) j["core"] = h.core;
  if (!h.site.empty()) j["site"] = h.site;
  if (h.repeats > 0) j["repeats"] = h.repeats;
  return j;
}

// Faults that fired, kept for the trace (instants next to the hazards).
struct FaultLog : Observer {
  std::vector<FaultEvent> events;
  void on_fault(const FaultEvent& f) override {
    if (events.size() < 10000) events.push_back(f);
  }
};

}  // namespace

RunOutput run_scenario(const Scenario& s, const TraceOptions& trace_opts, const std::vector<Observer*>& observers) {
  const PlatformFamily* family = find_family(s.platform_family);
  if (!family) throw std::invalid_argument("unknown platform family '" + s.platform_family + "'");
  return family->run(s, trace_opts, observers);
}

RunOutput run_ascend_scenario(const Scenario& s, const TraceOptions& trace_opts, const std::vector<Observer*>& observers) {
  const auto wall_start = std::chrono::steady_clock::now();
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  const AscendParams params = to_params(s);
  AscendSystem sys(params, s.pes, s.seed);

  CheckerConfig checker_config;
  for (const auto& [id, on] : s.checkers) checker_config.set(id, on);
  HazardLog hazards(checker_config);
  CheckerSet checkers(hazards, sys);
  checkers.attach(sys.hooks());
  StatsCollector stats;
  sys.hooks().attach(&stats);
  FaultLog fault_log;
  std::unique_ptr<FaultInjector> faults;
  if (!s.fault_specs.empty()) {
    faults = std::make_unique<FaultInjector>(s.fault_specs, s.seed, sys, sys.hooks());
    sys.hooks().set_faults(faults.get());
    sys.hooks().attach(&fault_log);
  }
  for (Observer* o : observers) sys.hooks().attach(o);
  std::unique_ptr<TraceWriter> trace;
  if (!trace_opts.path.empty()) {
    TraceFilter f;
    f.pes = trace_opts.pes;
    f.window_begin_ps = trace_opts.window_begin_ns * 1000;
    f.window_end_ps = trace_opts.window_end_ns == UINT64_MAX ? UINT64_MAX : trace_opts.window_end_ns * 1000;
    trace = std::make_unique<TraceWriter>(f, &sys.fabric());
    sys.hooks().attach(trace.get());
  }

  const KernelInfo& kernel = *KernelRegistry::instance().find(s.kernel);
  const KernelArgs args(s.args, s.blocks);
  std::vector<std::string> host_errors;
  shim::start(sys, [&](int pe) {
    try {
      kernel.host_main(pe, args);
    } catch (const std::exception& e) {
      host_errors.push_back(fmt::format("pe {}: host program failed: {}", pe, e.what()));
    }
  });

  // The shim stops a deadlocked run with sc_stop; SystemC's notice of it would go to stdout.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const Ps limit_ps = ns_to_ps(params.sim_max_time_us * 1000.0);
  sc_core::sc_start(sc_core::sc_time::from_value(limit_ps), sc_core::SC_EXIT_ON_STARVATION);
  const bool completed = shim::all_hosts_finished();
  const bool time_limit = !completed && !shim::deadlock_detected() && sc_core::sc_pending_activity();
  // Past the limit the run has reached it, whenever the last event before it happened.
  const Ps end_ps = time_limit ? limit_ps : static_cast<Ps>(sc_core::sc_time_stamp().value());
  sys.visibility().settle(UINT64_MAX);
  checkers.finish(end_ps, completed, time_limit);

  // Expectations.
  ExpectationReport report;
  const json checks = report.host_checks(s.expect, host_errors);
  // Traps at the same instant are listed by PE and core, whatever order the cores ran in.
  std::vector<shim::TrapRecord> trap_list = shim::traps();
  std::stable_sort(trap_list.begin(), trap_list.end(), [](const shim::TrapRecord& a, const shim::TrapRecord& b) {
    return std::tie(a.time_ps, a.pe, a.core) < std::tie(b.time_ps, b.pe, b.core);
  });
  json traps = json::array();
  for (const shim::TrapRecord& t : trap_list) {
    traps.push_back({{"pe", t.pe}, {"core", t.core}, {"kernel", t.kernel}, {"time_ns", ps_to_ns(t.time_ps)},
                     {"reason", t.reason}});
    if (!s.expect.trap)
      report.expect(false, fmt::format("pe {}: kernel {} ran without trapping", t.pe, t.kernel),
             fmt::format("AIV core {} trapped at {:.3f} us: {}", t.core, ps_to_us(t.time_ps), t.reason));
  }
  if (s.expect.trap) {
    const std::string first = trap_list.empty()
                                  ? std::string("no kernel trapped")
                                  : fmt::format("pe {} AIV core {} (kernel {}) trapped at {:.3f} us: {}",
                                                trap_list[0].pe, trap_list[0].core, trap_list[0].kernel,
                                                ps_to_us(trap_list[0].time_ps), trap_list[0].reason);
    report.expect(!trap_list.empty(), "a kernel trapped (expect.trap)", first);
  }
  report.hazards_and_time(s.expect, hazards, end_ps, !host_errors.empty());

  json hazard_list = json::array();
  for (const Hazard& h : hazards.all()) {
    hazard_list.push_back(hazard_json(h));
    if (trace) trace->hazard(h.pe, h.id, h.time_ps, h.site.empty() ? h.detail : h.site + ": " + h.detail);
  }
  if (trace)
    for (const FaultEvent& f : fault_log.events)
      trace->hazard(f.qp.pe, std::string("fault ") + f.kind, f.t, f.detail);
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
                {"stats", stats.to_json(end_ps, sys.fabric())},
                {"config", s.effective}};
  // Checked and atomic: a trace is whole or absent (io::OutputError names the path).
  if (trace) io::write_file(trace_opts.path, [&](std::ostream& os) { trace->write(os); });
  shim::stop();
  return out;
}

std::string summarize(const json& r) {
  std::string out = fmt::format("{}: {}  simulated {:.3f} us  wall {:.2f} s\n", r["scenario"].get<std::string>(),
                                r["status"].get<std::string>(), r["sim_time_ns"].get<double>() / 1000.0,
                                r["wall_s"].get<double>());
  const json& t = r["stats"]["totals"];
  out += fmt::format("  {} WQEs, {} bytes, {} doorbells, {} CQEs\n", t["wqes"].get<uint64_t>(), t["bytes"].get<uint64_t>(),
                     t["doorbells"].get<uint64_t>(), t["cqes"].get<uint64_t>());
  size_t passed = 0;
  for (const json& e : r["expectations"]) passed += e["ok"].get<bool>();
  out += fmt::format("  expectations: {} of {} hold\n", passed, r["expectations"].size());
  for (const json& e : r["expectations"])
    if (!e["ok"].get<bool>())
      out += fmt::format("  FAILED: {}{}\n", e["what"].get<std::string>(),
                         e["detail"].get<std::string>().empty() ? "" : " -- " + e["detail"].get<std::string>());
  if (r.contains("traps"))
    for (const json& t : r["traps"])
      out += t.contains("core")  // Ascend traps name the core and time; NVIDIA ones say both in the reason
                 ? fmt::format("  trap: pe {} AIV core {} (kernel {}) at {:.3f} us: {}\n", t["pe"].get<int>(),
                               t["core"].get<int>(), t["kernel"].get<std::string>(), t["time_ns"].get<double>() / 1000.0,
                               t["reason"].get<std::string>())
                 : fmt::format("  trap: pe {} (kernel {}): {}\n", t["pe"].get<int>(), t["kernel"].get<std::string>(),
                               t["reason"].get<std::string>());
  size_t shown = 0;
  for (const json& h : r["hazards"]) {
    if (shown++ == 10) {
      out += fmt::format("  ... {} more hazards in result.json\n", r["hazards"].size() - 10);
      break;
    }
    out += fmt::format("  hazard {} pe {}{} qp {} wqe {} addr {} at {:.3f} us{}{}{}: {}\n", h["id"].get<std::string>(),
                       h["pe"].get<int>(), h.contains("core") ? fmt::format(" core {}", h["core"].get<int>()) : "",
                       h["qp"].get<int>(), h["wqe"].get<int64_t>(), h["addr"].get<std::string>(),
                       h["time_ns"].get<double>() / 1000.0,
                       h.contains("site") ? " (" + h["site"].get<std::string>() + ")" : "",
                       h.contains("repeats") ? fmt::format(" [x{}]", h["repeats"].get<uint64_t>() + 1) : "",
                       h.value("observed", true) ? "" : " (not observed: timing hid it)", h["detail"].get<std::string>());
  }
  return out;
}

}  // namespace symsim
