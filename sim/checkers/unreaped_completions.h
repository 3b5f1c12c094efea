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

  // 20 bytes, all written on a WQE's execution (qp_record.h lays the record out by line); the
  // QP is the record's key (QpTable::in_order names it). The recent (CQE index, WQE index) are
  // the record's CQE log's (`completions.cqes`, reader kUnreaped): oldest first, the newest 4096
  // not yet returned.
  struct QpCompletions {
    uint32_t requested = 0;  // per QP: 2^32 CQEs are far beyond any run
    uint32_t consumed = 0;
    // The log's oldest CQE index for this reader while it is not empty: the test for returned
    // CQEs on each WQE reads the record's line, not the log's oldest entry (written long before).
    uint32_t front_cqe = 0;
    uint32_t newest_cqe = 0;  // the log's newest for this reader (while it is not empty)
    bool errors = false;
    // Whether the reader's CQE indices may skip one (none does while every CQE of the QP comes
    // through on_executed): without, the next front is front_cqe + 1, not read from the log.
    // Past 4096 kept, each WQE moves the front, and its entry, written 4096 CQEs before, was a
    // cache miss per WQE.
    bool gaps = false;
    // The CQE `cqe_index` was just logged in `w` (its newest for this reader): forgets the CQEs
    // returned already (before `consumed`) and all but the newest `kept`.
    void on_logged(uint32_t cqe_index, CqeLog& w, size_t kept) {
      constexpr CqeLog::Reader kMine = CqeLog::kUnreaped;
      if (w.size(kMine) == 1) {
        front_cqe = cqe_index;
        gaps = false;
      } else if (cqe_index != newest_cqe + 1) {
        gaps = true;
      }
      newest_cqe = cqe_index;
      if (__builtin_expect(gaps, false)) return forget_reading(w, kept);
      // Consecutive indices: the loop forget_reading runs, counted. It drops the oldest while
      // more than `kept` are held or the front is before `consumed` (the front moving one a
      // drop), until none is left; front_cqe follows the front while the reader is not empty.
      const uint32_t held = static_cast<uint32_t>(w.size(kMine));  // at least the one just logged
      const uint32_t excess = held > kept ? held - static_cast<uint32_t>(kept) : 0;
      const uint32_t behind = static_cast<int32_t>(front_cqe - consumed) < 0 ? consumed - front_cqe : 0;
      const uint32_t drop = excess > behind ? excess : behind;
      if (drop == 0) return;
      if (drop < held) {
        front_cqe += drop;
        w.drop_front(kMine, drop);
      } else {
        front_cqe += held - 1;
        w.drop_front(kMine, held);
      }
    }
    // The same by reading the log, entry by entry (CQE indices that skip).
    void forget_reading(CqeLog& w, size_t kept) {
      constexpr CqeLog::Reader kMine = CqeLog::kUnreaped;
      while (!w.empty(kMine) && (w.size(kMine) > kept || static_cast<int32_t>(front_cqe - consumed) < 0)) {
        w.pop_front(kMine);
        if (!w.empty(kMine)) front_cqe = w.front_cqe(kMine);
      }
    }
  };
 private:
  static constexpr size_t kKept = 4096;
  std::set<int> m_trapped;
};

inline void UnreapedCompletionsChecker::on_executed(const WqeRecord& r, QpCompletions& c, CqeLog& w) {
  if (!(r.flags & udma::flag::kCqe) && r.status == 0) return;  // no CQE asked for
  ++c.requested;
  if (r.status != 0 || r.substatus != 0) c.errors = true;
  if (r.cqe_ps != 0) c.on_logged(r.cqe_index, w, kKept);  // already in the record's CQE log (cqe_log.h)
}

}  // namespace symsim
