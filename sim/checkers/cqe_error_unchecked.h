#pragma once
#include <map>
#include <vector>
#include <string>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "models/core/qp_table.h"

namespace symsim {

inline constexpr HazardId kCqeErrorUnchecked{"cqe_error_unchecked", "an error CQE was never polled or its status ignored"};

// cqe_error_unchecked: an error CQE never polled, or consumed without the kernel stopping.
class CqeErrorUncheckedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_executed(const WqeRecord& r);
  void on_reaped(const QpRef& q, uint32_t index);
  bool any_errors() const { return !m_errors.empty(); }  // else reaps and CQ doorbells change nothing
  void on_cq_consumed(const QpRef& q, uint32_t consumer, Ps t);
  void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) override;
  void finish(Ps end_ps, bool completed) override;

 private:
  struct ErrorCqe {
    QpRef qp;
    uint32_t cqe_index;
    uint32_t wqe_index;
    uint8_t status, substatus;
    Ps cqe_ps;
    Ps consumed_ps = 0;  // CQ doorbell passed it (0: never)
    bool reaped = false;  // polled by the SHMEM API (which traps)
  };
  std::vector<ErrorCqe> m_errors;  // in the order written (the order of the reports)
  // Per QP, its error CQEs (indices into m_errors, CQE order) and how many of them the CQ
  // doorbell has passed: a poll or a doorbell visits only its own QP's unconsumed errors.
  struct QpErrors {
    std::vector<size_t> errors;
    size_t consumed = 0;
    Ps first_error_ps = 0;
  };
  QpTable<QpErrors> m_qps;
  std::map<int, Ps> m_last_trap;  // per PE
};

}  // namespace symsim
