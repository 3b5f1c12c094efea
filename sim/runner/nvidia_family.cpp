// The NVIDIA family: GPUs, NVLink and NICs (models/nvidia), run through the CUDA shim. Hazards
// come from the NVIDIA checkers (sim/checkers/nvidia) watching the models' events, and a
// launch that never ends is reported here as a deadlock or timeout with what each GPU waits on.
#include <systemc>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/checkers/hang_hazards.h"
#include "sim/checkers/hazard_log.h"
#include "sim/checkers/nvidia/nvidia_checker.h"
#include "models/nvidia/nic.h"
#include "models/nvidia/nvidia_params.h"
#include "models/nvidia/nvidia_system.h"
#include "sim/runner/expectation_report.h"
#include "sim/runner/families.h"
#include "sim/runner/family_simulation.h"
#include "sim/scenario/scenario.h"
#include "sim/stats/stats_collector.h"
#include "symsim/cuda/runtime.h"
#include "sim/trace/trace_writer.h"

namespace symsim {

using nlohmann::json;

namespace {

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

nv::NvidiaParams to_params(const Scenario& s) {
  nv::NvidiaParams p;
  for (ParamInfo& info : p.table()) *info.value = s.params.at(info.key);
  return p;
}

class NvidiaSimulation : public FamilySimulation {
 public:
  explicit NvidiaSimulation(const Scenario& s) : m_sys(to_params(s), s.pes, s.seed) { nv::current_system() = &m_sys; }

  Hooks& hooks() override { return m_sys.hooks(); }

  void attach_family_observers(HazardLog& log) override {
    m_checkers = std::make_unique<NvidiaCheckerSet>(log);
    m_checkers->attach(m_sys.hooks());
  }

  std::unique_ptr<TraceWriter> make_trace(const TraceFilter& filter) override {
    auto trace = std::make_unique<TraceWriter>(filter, &m_sys.ib(), OpcodeSet::kMlx5);
    for (const auto& l : m_sys.nvlink().links()) trace->name_link(l->id(), l->name());
    return trace;
  }

  void start_hosts(std::function<void(int)> host_main) override { cuda::start(m_sys, std::move(host_main)); }

  Ps finish(Ps, double limit_us, HazardLog& hazards) override {
    const Ps end_ps = static_cast<Ps>(sc_core::sc_time_stamp().value());
    m_sys.visibility().settle(UINT64_MAX);
    // Hangs: launches the models stopped (deadlock), and programs still running at the end.
    for (const nv::NvidiaSystem::Hang& h : m_sys.hangs())
      hazards.report({h.kind, h.gpu, -1, -1, -1, -1, "", h.time_ps, "", join(h.waits), 0});
    if (!cuda::all_hosts_finished()) {
      const bool timed_out = sc_core::sc_pending_activity();
      for (int g = 0; g < m_sys.n_gpus(); ++g) {
        std::vector<std::string> waits = m_sys.scheduler(g).describe_waits(12);
        if (waits.empty()) continue;
        hazards.report({timed_out ? kTimeout.name : kDeadlock.name, g, -1, -1, -1, -1, "", end_ps, "",
                        (timed_out ? fmt::format("still running at the {} us limit: ", limit_us) : "") + join(waits), 0});
      }
      if (!timed_out && hazards.all().empty())
        hazards.report({kDeadlock.name, -1, -1, -1, -1, -1, "", end_ps, "", join(cuda::host_waits()), 0});
    }
    return end_ps;
  }

  // The time of a GPU trap is in its reason ("trap in CTA 0 thread 3 at 1.234 us: ...").
  std::vector<TrapRecord> traps() override {
    std::vector<TrapRecord> out;
    for (const cuda::LaunchError& e : cuda::launch_errors())
      if (e.error.rfind("trap", 0) == 0)  // deadlocks and timeouts are hazards
        out.push_back({e.gpu, -1, e.kernel, std::nullopt, e.error});
    return out;
  }

  json stats(const StatsCollector& stats, Ps end_ps, ExpectationReport& report) override {
    std::vector<Ps> busy_ps;
    for (int g = 0; g < m_sys.n_gpus(); ++g) busy_ps.push_back(m_sys.nic(g).busy_ps());
    json out = stats.to_json(end_ps, m_sys.ib(), busy_ps);
    json nvlink = json::array();
    for (const auto& l : m_sys.nvlink().links()) {
      if (l->bytes() == 0) continue;
      nvlink.push_back({{"name", l->name()},
                        {"bytes", l->bytes()},
                        {"transfers", l->messages()},
                        {"busy_ns", ps_to_ns(l->busy_ps())},
                        {"utilization", end_ps ? std::round(1e4 * static_cast<double>(l->busy_ps()) / static_cast<double>(end_ps)) / 1e4 : 0.0}});
    }
    out["nvlink"] = nvlink;
    out["kernels"] = kernel_times();
    uint64_t resumes = 0;
    for (int g = 0; g < m_sys.n_gpus(); ++g) resumes += m_sys.scheduler(g).resumes();
    out["fibers"] = {{"stack_bytes", m_sys.stacks().stack_bytes()},
                     {"resumes", resumes},
                     {"peak_live", m_sys.stacks().peak_in_use()},
                     {"stack_overflows", m_sys.stacks().overflows()}};
    if (m_sys.stacks().overflows() > 0)
      report.expect(false, "no CUDA-thread fiber overflowed its stack",
                    fmt::format("{} fibers overflowed their {} B stacks (raise sim.fiber_stack_bytes)",
                                m_sys.stacks().overflows(), m_sys.stacks().stack_bytes()));
    return out;
  }

  void stop() override { cuda::stop(); }

 private:
  nv::NvidiaSystem m_sys;
  std::unique_ptr<NvidiaCheckerSet> m_checkers;
};

class NvidiaFamily : public PlatformFamily {
 public:
  const char* name() const override { return "nvidia"; }
  const char* pe_noun() const override { return "gpu"; }
  ParamTable parameters() const override {
    static nv::NvidiaParams scratch;
    return scratch.table();
  }
  const char* blocks_param() const override { return "sm.count"; }
  std::vector<const char*> pow2_params() const override { return {"nic.sq_depth", "nic.cq_depth"}; }
  std::unique_ptr<FamilySimulation> build(const Scenario& s) const override {
    return std::make_unique<NvidiaSimulation>(s);
  }
};

}  // namespace

const PlatformFamily& nvidia_family() {
  static const NvidiaFamily f;
  return f;
}

}  // namespace symsim
