#pragma once
#include <set>
#include <string>
#include <utility>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/cqe_log.h"
#include "models/ascend/wqe_layout.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

inline constexpr HazardId kUnreapedCompletions{"unreaped_completions", "a kernel ended with completions never polled"};

// unreaped_completions: CQEs a kernel asked for and never polled by the end of the run.
class UnreapedCompletionsChecker : public Checker {
 public:
  using Checker::Checker;
  struct QpCompletions;
  // `mine` and `cqes` are the event's QP's parts of its record (qp_record.h), kept in the
  // context's shared table. Inline: one per WQE that asks for a CQE.
  void on_executed(const WqeRecord& r, QpCompletions& mine, CqeLog& cqes);
  void on_cq_consumed(uint32_t consumer, QpRecord& rec);
  void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) override;
  void finish(Ps end_ps, bool completed) override;

  // 16 bytes, all written on a WQE's execution (qp_record.h lays the record out by line); the
  // QP is the record's key (QpTable::in_order names it). The recent (CQE index, WQE index) are
  // the record's CQE log's (`completions.cqes`, reader kUnreaped): oldest first, the newest 4096
  // not yet returned.
  struct QpCompletions {
    uint32_t requested = 0;  // per QP: 2^32 CQEs are far beyond any run
    uint32_t consumed = 0;
    // The log's oldest CQE index for this reader while it is not empty: the test for returned
    // CQEs on each WQE reads the record's line, not the log's oldest entry (written long before).
    uint32_t front_cqe = 0;
    bool errors = false;
  };
 private:
  static constexpr size_t kKept = 4096;
  std::set<int> m_trapped;
};

inline void UnreapedCompletionsChecker::on_executed(const WqeRecord& r, QpCompletions& c, CqeLog& w) {
  if (!(r.flags & udma::flag::kCqe) && r.status == 0) return;  // no CQE asked for
  ++c.requested;
  if (r.status != 0 || r.substatus != 0) c.errors = true;
  if (r.cqe_ps != 0) {  // already in the record's CQE log (cqe_log.h)
    constexpr CqeLog::Reader kMine = CqeLog::kUnreaped;
    if (w.size(kMine) == 1) c.front_cqe = r.cqe_index;
    // Forget CQEs returned already, and all but the newest kKept.
    while (!w.empty(kMine) && (w.size(kMine) > kKept || static_cast<int32_t>(c.front_cqe - c.consumed) < 0)) {
      w.pop_front(kMine);
      if (!w.empty(kMine)) c.front_cqe = w.front(kMine).cqe;
    }
  }
}

}  // namespace symsim
