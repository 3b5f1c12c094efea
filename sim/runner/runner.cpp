#include "sim/runner/runner.h"

#include <systemc>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <utility>

#include "sim/checkers/hazard_log.h"
#include "sim/io/output_file.h"
#include "kernels/registry/kernel_registry.h"
#include "sim/runner/expectation_report.h"
#include "sim/runner/family_simulation.h"
#include "sim/runner/platform_family.h"
#include "sim/runner/result_json.h"
#include "sim/runner/source_paths.h"
#include "sim/stats/stats_collector.h"
#include "sim/trace/trace_writer.h"

namespace symsim {

using nlohmann::json;

namespace {

// Faults that fired, kept for the trace (instants next to the hazards).
struct FaultLog : Observer {
  std::vector<FaultEvent> events;
  void on_fault(const FaultEvent& f) override {
    if (events.size() < 10000) events.push_back(f);
  }
};

TraceFilter trace_filter(const TraceOptions& o) {
  TraceFilter f;
  f.pes = o.pes;
  f.window_begin_ps = o.window_begin_ns * 1000;
  f.window_end_ps = o.window_end_ns == UINT64_MAX ? UINT64_MAX : o.window_end_ns * 1000;
  return f;
}

// Traps against expect.trap: a trap nobody expected fails the run, and so does none when one
// was expected.
void expect_traps(const Expectations& e, const std::vector<TrapRecord>& traps, const PlatformFamily& family,
                  ExpectationReport& report) {
  for (const TrapRecord& t : traps) {
    if (e.trap) break;
    report.expect(false, fmt::format("{} {}: kernel {} ran without trapping", family.pe_noun(), t.pe, t.kernel),
                  t.core >= 0 ? fmt::format("AIV core {} trapped at {:.3f} us: {}", t.core, ps_to_us(t.time_ps.value_or(0)), t.reason)
                              : t.reason);
  }
  if (!e.trap) return;
  std::string first = "no kernel trapped";
  if (!traps.empty())
    first = traps[0].core >= 0 ? fmt::format("pe {} AIV core {} (kernel {}) trapped at {:.3f} us: {}", traps[0].pe,
                                             traps[0].core, traps[0].kernel, ps_to_us(traps[0].time_ps.value_or(0)),
                                             traps[0].reason)
                               : traps[0].reason;
  report.expect(!traps.empty(), "a kernel trapped (expect.trap)", first);
}

// Call sites in hazards and traps: relative to the source root when inside it, whatever the
// build left in __FILE__ (runner/source_paths.h).
void same_kind_of_paths(std::vector<Hazard>& hazards, std::vector<TrapRecord>& traps) {
  const std::string& root = build_source_root();
  for (TrapRecord& t : traps) t.reason = source_relative_in_text(t.reason, root);
  for (Hazard& h : hazards) {
    h.site = source_relative(h.site, root);
    h.detail = source_relative_in_text(h.detail, root);
  }
}

}  // namespace

// What a run builds and its end tears down, members in the order the run made them as locals:
// destroyed in the same (reverse) order, the hazard log after the platform whose observers
// report into it.
struct RunState {
  explicit RunState(const CheckerConfig& config) : hazards(config) {}
  HazardLog hazards;
  std::unique_ptr<FamilySimulation> sim;
  StatsCollector stats;
  FaultLog fault_log;
  std::unique_ptr<TraceWriter> trace;
};

RunOutput run_scenario(const Scenario& s, const TraceOptions& trace_opts, const std::vector<Observer*>& observers,
                       RunEnd end) {
  const PlatformFamily* family = find_family(s.platform_family);
  if (!family) throw std::invalid_argument("unknown platform family '" + s.platform_family + "'");
  const auto wall_start = std::chrono::steady_clock::now();
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  CheckerConfig checker_config;
  for (const auto& [id, on] : s.checkers) checker_config.set(id, on);
  auto state = std::make_shared<RunState>(checker_config);
  HazardLog& hazards = state->hazards;
  std::unique_ptr<FamilySimulation>& sim = state->sim;
  sim = family->build(s);
  sim->attach_family_observers(hazards);
  StatsCollector& stats = state->stats;
  sim->hooks().attach(&stats);
  FaultLog& fault_log = state->fault_log;
  if (!s.fault_specs.empty()) sim->hooks().attach(&fault_log);
  for (Observer* o : observers) sim->hooks().attach(o);
  std::unique_ptr<TraceWriter>& trace = state->trace;
  if (!trace_opts.path.empty()) {
    trace = sim->make_trace(trace_filter(trace_opts));
    sim->hooks().attach(trace.get());
  }

  const KernelInfo& kernel = *KernelRegistry::instance().find(s.kernel);
  const KernelArgs args(s.args, s.blocks);
  std::vector<std::string> host_errors;
  sim->start_hosts([&](int pe) {
    try {
      kernel.host_main(pe, args);
    } catch (const std::exception& e) {
      host_errors.push_back(fmt::format("{} {}: host program failed: {}", family->pe_noun(), pe, e.what()));
    }
  });

  // A deadlocked run is stopped with sc_stop; SystemC's notice of it would go to stdout.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const double limit_us = s.params.at("sim.max_time_us");
  const Ps limit_ps = ns_to_ps(limit_us * 1000.0);
  sc_core::sc_start(sc_core::sc_time::from_value(limit_ps), sc_core::SC_EXIT_ON_STARVATION);
  RunRecord record;
  record.end_ps = sim->finish(limit_ps, limit_us, hazards);

  ExpectationReport report;
  record.checks = report.host_checks(s.expect, host_errors);
  record.traps = sim->traps();
  record.hazards = hazards.all();
  same_kind_of_paths(record.hazards, record.traps);
  expect_traps(s.expect, record.traps, *family, report);
  report.hazards_and_time(s.expect, hazards, record.end_ps, !host_errors.empty());
  record.stats = sim->stats(stats, record.end_ps, report);

  if (trace) {
    for (const Hazard& h : record.hazards)
      trace->hazard(h.pe, h.id, h.time_ps, h.site.empty() ? h.detail : h.site + ": " + h.detail);
    for (const FaultEvent& f : fault_log.events) trace->hazard(f.qp.pe, std::string("fault ") + f.kind, f.t, f.detail);
  }
  record.scenario = s.name;
  record.passed = report.ok();
  record.seed = s.seed;
  record.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  record.expectations = report.list();
  record.config = s.effective;
  RunOutput out;
  out.passed = record.passed;
  out.result = result_json(std::move(record));
  // Checked and atomic: a trace is whole or absent (io::OutputError names the path).
  if (trace) io::write_file(trace_opts.path, [&](std::ostream& os) { trace->write(os); });
  sim->stop();
  if (end == RunEnd::kKept) out.kept = std::move(state);
  return out;
}

}  // namespace symsim
