#include "sim/checkers/checker_set.h"

#include <fmt/format.h>

#include <vector>

#include "sim/checkers/checker_hub.h"
#include "sim/checkers/dst_write_race.h"
#include "sim/checkers/flag_before_data.h"
#include "sim/checkers/hang_report.h"
#include "sim/checkers/src_reuse_before_completion.h"
#include "symsim/shim_runtime.h"

namespace symsim {

namespace {

using AscendCheckers = catalog::Registry<catalog::CheckerFactory<CheckerContext, Checker>>;

}  // namespace

CheckerSet::CheckerSet(HazardLog& log, AscendSystem& sys) : m_sites(m_qps), m_ctx{log, sys, m_sites, {}}, m_history(m_ctx) {
  m_ctx.qps = &m_qps;
  m_ctx.pending_flags = &m_pending_flags;
  // The rules that judge by happens-before share one record of posts and reaps per QP.
  for (const HazardId& id : {kFlagBeforeData, kSrcReuseBeforeCompletion, kDstWriteRace})
    if (log.enabled(id.name) && !m_completions) m_completions = std::make_unique<CompletionKnowledge>(m_ctx);
  m_ctx.completions = m_completions.get();
  // Every registered Ascend checker one of whose hazard ids is enabled, in rank order.
  for (const auto& r : AscendCheckers::instance().all()) {
    bool any = false;
    for (const HazardId& id : r.info.ids) any = any || log.enabled(id.name);
    if (any) m_checkers.push_back(r.make(m_ctx));
  }
}

CheckerSet::~CheckerSet() = default;

void CheckerSet::attach(Hooks& hooks) {
  // The call-site index and the write history serve the rules and the hang report only: with
  // every rule switched off they are not attached, and checking costs nothing.
  const bool hang_report = m_ctx.log.enabled(kDeadlock.name) || m_ctx.log.enabled(kTimeout.name);
  const bool sites = !m_checkers.empty() || hang_report;
  // The per-WQE hooks go through the hub (the members' order below); the members' other hooks
  // are dispatched by `hooks` as before.
  m_hub = std::make_unique<Hub>(m_ctx, m_qps, sites ? &m_sites : nullptr, hang_report ? &m_history : nullptr,
                                m_completions.get(), m_checkers);
  if (!m_hub->empty()) hooks.attach(m_hub.get());
  if (sites) hooks.attach(&m_sites);  // first: the others look sites up
  if (hang_report) hooks.attach(&m_history);
  if (m_completions) hooks.attach(m_completions.get());  // before the rules that ask it
  for (auto& c : m_checkers) hooks.attach(c.get());
}

void CheckerSet::finish(Ps end_ps, bool completed, bool time_limit) {
  for (auto& c : m_checkers) c->finish(end_ps, completed);
  for (const shim::WaitRecord& w : shim::gave_up()) {
    report_hang(m_ctx, m_history, kTimeout,
                fmt::format("a poll passed the shim's retry limit ({} polls) and the kernel trapped", w.polls),
                {w}, w.since_ps);
  }
  if (completed) return;
  const bool deadlock = shim::deadlock_detected() || !time_limit;
  const std::string why =
      shim::deadlock_detected()
          ? "deadlock: every kernel block polls or waits, every host waits, and nothing is in flight"
          : (time_limit ? fmt::format("timeout: the simulated time limit ({}) passed with programs unfinished",
                                      us_text(end_ps))
                        : "deadlock: the simulation ran out of events with programs unfinished");
  report_hang(m_ctx, m_history, deadlock ? kDeadlock : kTimeout, why, shim::waiting(end_ps), end_ps);
}

}  // namespace symsim
