#pragma once
#include <set>
#include <string>
#include <utility>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/ring_fifo.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

inline constexpr HazardId kUnreapedCompletions{"unreaped_completions", "a kernel ended with completions never polled"};

// unreaped_completions: CQEs a kernel asked for and never polled by the end of the run.
class UnreapedCompletionsChecker : public Checker {
 public:
  using Checker::Checker;
  // `rec` is the record of the event's QP (qp_record.h), kept in the context's shared table.
  void on_executed(const WqeRecord& r, QpRecord& rec);
  void on_cq_consumed(const QpRef& q, uint32_t consumer, QpRecord& rec);
  void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) override;
  void finish(Ps end_ps, bool completed) override;

  struct QpCompletions {
    QpRef qp;
    uint64_t requested = 0;
    uint32_t consumed = 0;
    bool errors = false;
    // Recent (CQE index, WQE index), oldest first: the newest 4096 not yet returned. A ring, so a
    // CQE costs O(1) amortised and nothing is moved or allocated once it is warm.
    RingFifo<std::pair<uint32_t, uint32_t>> wqe_of_cqe;
  };
 private:
  std::set<int> m_trapped;
};

}  // namespace symsim
