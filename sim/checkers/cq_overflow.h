#pragma once
#include <map>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kCqOverflow{"cq_overflow", "the engine had a CQE to write and the CQ was full (the QP then enters the error state)"};

// cq_overflow: a CQE had no room in its CQ (the QP then enters the error state).
class CqOverflowChecker : public Checker {
 public:
  using Checker::Checker;
  void on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) override;
  void on_executed(const WqeRecord& r);
  bool waiting() const { return !m_pending.empty(); }  // an overflow waits for its WQE

 private:
  struct Pending {
    uint32_t produced, consumed;
    Ps t;
  };
  std::map<QpKey, Pending> m_pending;
};

}  // namespace symsim
