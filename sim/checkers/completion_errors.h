// Hazards the engine's own checks reveal: a WQE completed with an error status (token
// mismatch, remote address outside registered memory, unreachable target), a CQ overflow,
// a doorbell that moved backwards.
#pragma once
#include "checkers/hazard_log.h"
#include "models/core/observer.h"

namespace symsim {

class CompletionErrorChecker : public Observer {
 public:
  explicit CompletionErrorChecker(HazardLog& log) : m_log(log) {}
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) override;
  void on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index, Ps t) override;

 private:
  HazardLog& m_log;
};

}  // namespace symsim
