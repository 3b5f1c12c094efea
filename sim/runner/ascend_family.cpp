// The Ascend family: AIV cores, UDMA engines and the UB fabric (models/platform), run through
// the AscendC shim; hazards come from the checkers in sim/checkers, faults from sim/faults.
#include <systemc>

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "sim/checkers/checker_set.h"
#include "sim/checkers/hazard_log.h"
#include "sim/faults/fault_injector.h"
#include "models/platform/ascend_params.h"
#include "models/platform/ascend_system.h"
#include "sim/runner/expectation_report.h"
#include "sim/runner/families.h"
#include "sim/runner/family_simulation.h"
#include "sim/scenario/scenario.h"
#include "sim/stats/stats_collector.h"
#include "symsim/shim_runtime.h"
#include "sim/trace/trace_writer.h"

namespace symsim {

namespace {

AscendParams to_params(const Scenario& s) {
  AscendParams p;
  for (ParamInfo& info : p.table()) *info.value = s.params.at(info.key);
  return p;
}

class AscendSimulation : public FamilySimulation {
 public:
  explicit AscendSimulation(const Scenario& s) : m_scenario(s), m_params(to_params(s)), m_sys(m_params, s.pes, s.seed) {}

  Hooks& hooks() override { return m_sys.hooks(); }

  void attach_family_observers(HazardLog& log) override {
    m_checkers = std::make_unique<CheckerSet>(log, m_sys);
    m_checkers->attach(m_sys.hooks());
    if (!m_scenario.fault_specs.empty()) {
      m_faults = std::make_unique<FaultInjector>(m_scenario.fault_specs, m_scenario.seed, m_sys, m_sys.hooks());
      m_sys.hooks().set_faults(m_faults.get());
    }
  }

  std::unique_ptr<TraceWriter> make_trace(const TraceFilter& filter) override {
    return std::make_unique<TraceWriter>(filter, &m_sys.fabric());
  }

  void start_hosts(std::function<void(int)> host_main) override { shim::start(m_sys, std::move(host_main)); }

  Ps finish(Ps limit_ps, double, HazardLog&) override {
    const bool completed = shim::all_hosts_finished();
    const bool time_limit = !completed && !shim::deadlock_detected() && sc_core::sc_pending_activity();
    // Past the limit the run has reached it, whenever the last event before it happened.
    const Ps end_ps = time_limit ? limit_ps : static_cast<Ps>(sc_core::sc_time_stamp().value());
    m_sys.visibility().settle(UINT64_MAX);
    m_checkers->finish(end_ps, completed, time_limit);
    return end_ps;
  }

  std::vector<TrapRecord> traps() override {
    std::vector<TrapRecord> out;
    for (const shim::TrapRecord& t : shim::traps()) out.push_back({t.pe, t.core, t.kernel, t.time_ps, t.reason});
    // Traps at the same instant are listed by PE and core, whatever order the cores ran in.
    std::stable_sort(out.begin(), out.end(), [](const TrapRecord& a, const TrapRecord& b) {
      return std::tie(*a.time_ps, a.pe, a.core) < std::tie(*b.time_ps, b.pe, b.core);
    });
    return out;
  }

  nlohmann::json stats(const StatsCollector& stats, Ps end_ps, ExpectationReport&) override {
    std::vector<Ps> busy_ps;
    for (int pe = 0; pe < m_sys.n_pes(); ++pe) busy_ps.push_back(m_sys.engine(pe).busy_ps());
    return stats.to_json(end_ps, m_sys.fabric(), busy_ps);
  }

  void stop() override { shim::stop(); }

 private:
  const Scenario& m_scenario;
  const AscendParams m_params;  // the system keeps a reference to it
  AscendSystem m_sys;
  std::unique_ptr<CheckerSet> m_checkers;
  std::unique_ptr<FaultInjector> m_faults;
};

class AscendFamily : public PlatformFamily {
 public:
  const char* name() const override { return "ascend"; }
  const char* pe_noun() const override { return "pe"; }
  ParamTable parameters() const override {
    static AscendParams scratch;
    return scratch.table();
  }
  const char* blocks_param() const override { return "aiv.cores"; }
  std::vector<const char*> pow2_params() const override { return {"udma.sq_depth_bb", "udma.cq_depth"}; }
  std::unique_ptr<FamilySimulation> build(const Scenario& s) const override {
    return std::make_unique<AscendSimulation>(s);
  }
};

}  // namespace

const PlatformFamily& ascend_family() {
  static const AscendFamily f;
  return f;
}

}  // namespace symsim
