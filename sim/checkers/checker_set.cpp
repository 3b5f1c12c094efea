#include "checkers/checker_set.h"

#include <fmt/format.h>

#include <functional>
#include <vector>

#include "checkers/flag_before_data.h"
#include "checkers/hang_report.h"
#include "symsim/shim_runtime.h"

namespace symsim {

namespace {

// Which hazard ids each checker reports; it is built when any of them is enabled. (Not an
// initializer_list: its array would die with the temporaries that initialise the table.)
struct Rule {
  std::vector<const char*> ids;
  std::function<std::unique_ptr<Checker>(CheckerContext&)> make;
};

template <typename T>
std::unique_ptr<Checker> make(CheckerContext& c) {
  return std::make_unique<T>(c);
}

const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {{"sq_overrun"}, make<SqOverrunChecker>},
      {{"doorbell_regression"}, make<DoorbellRegressionChecker>},
      {{"torn_wqe"}, make<TornWqeChecker>},
      {{"cq_overflow"}, make<CqOverflowChecker>},
      {{"token_mismatch", "bad_remote_addr", "relay_unreachable"}, make<CompletionErrorChecker>},
      {{"cqe_error_unchecked"}, make<CqeErrorUncheckedChecker>},
      {{"unreaped_completions"}, make<UnreapedCompletionsChecker>},
      {{"qp_multi_producer"}, make<QpMultiProducerChecker>},
      {{"src_reuse_before_completion"}, make<SrcReuseChecker>},
      {{"dst_write_race"}, make<DstWriteRaceChecker>},
      {{"torn_block_consumed"}, make<TornBlockConsumedChecker>},
      {{"flag_before_data"}, make<FlagBeforeDataChecker>},
      {{"pipe_sync_missing"}, make<PipeSyncMissingChecker>},
      {{"event_id_unpaired"}, make<EventIdUnpairedChecker>},
      {{"ub_out_of_bounds"}, make<UbOutOfBoundsChecker>},
      {{"gm_out_of_bounds"}, make<GmOutOfBoundsChecker>},
      {{"unaligned_access"}, make<UnalignedAccessChecker>},
      {{"core_write_race"}, make<CoreWriteRaceChecker>},
  };
  return r;
}

}  // namespace

CheckerSet::CheckerSet(HazardLog& log, AscendSystem& sys) : m_ctx{log, sys, m_sites, {}}, m_history(m_ctx) {
  // The rules that judge by happens-before share one record of posts and reaps per QP.
  for (const char* id : {"flag_before_data", "src_reuse_before_completion", "dst_write_race"})
    if (log.enabled(id) && !m_completions) m_completions = std::make_unique<CompletionKnowledge>(m_ctx);
  m_ctx.completions = m_completions.get();
  for (const Rule& r : rules()) {
    bool any = false;
    for (const char* id : r.ids) any = any || log.enabled(id);
    if (any) m_checkers.push_back(r.make(m_ctx));
  }
  m_checkers.push_back(std::make_unique<ModelHazardForwarder>(m_ctx));
}

void CheckerSet::attach(Hooks& hooks) {
  // The call-site index and the write history serve the rules and the hang report only: with
  // every rule switched off they are not attached, and checking costs nothing.
  const bool hang_report = m_ctx.log.enabled("deadlock") || m_ctx.log.enabled("timeout");
  if (m_checkers.size() > 1 || hang_report) hooks.attach(&m_sites);  // first: the others look sites up
  if (hang_report) hooks.attach(&m_history);
  if (m_completions) hooks.attach(m_completions.get());  // before the rules that ask it
  for (auto& c : m_checkers) hooks.attach(c.get());
}

void CheckerSet::finish(Ps end_ps, bool completed, bool time_limit) {
  for (auto& c : m_checkers) c->finish(end_ps, completed);
  for (const shim::WaitRecord& w : shim::gave_up()) {
    report_hang(m_ctx, m_history, "timeout",
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
  report_hang(m_ctx, m_history, deadlock ? "deadlock" : "timeout", why, shim::waiting(end_ps), end_ps);
}

}  // namespace symsim
