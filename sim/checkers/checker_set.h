// Builds the hazard checkers a scenario enables, attaches them to the models' hooks, and
// runs the end-of-run rules and the hang diagnosis. The runner's one entry point to checking.
#pragma once
#include <memory>
#include <vector>

#include "sim/checkers/checker_context.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/completion_knowledge.h"
#include "sim/checkers/qp_record.h"
#include "sim/checkers/write_history.h"

namespace symsim {

class CheckerSet {
 public:
  CheckerSet(HazardLog& log, AscendSystem& sys);
  ~CheckerSet();
  void attach(Hooks& hooks);
  // After the simulation: end-of-run rules, then (when programs did not finish) the hang report.
  void finish(Ps end_ps, bool completed, bool time_limit);
  CheckerContext& context() { return m_ctx; }

 private:
  class Hub;  // the per-WQE hooks of every rule, behind one observer (checker_hub.h)
  QpRecords m_qps;  // shared by the call-site index, the completion record and the per-QP rules
  PendingFlags m_pending_flags;  // shared by pipe_sync_missing and event_id_unpaired
  SiteIndex m_sites;
  CheckerContext m_ctx;
  WriteHistory m_history;
  std::unique_ptr<CompletionKnowledge> m_completions;
  std::vector<std::unique_ptr<Checker>> m_checkers;
  std::unique_ptr<Hub> m_hub;
};

}  // namespace symsim
