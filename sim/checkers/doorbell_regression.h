#pragma once

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kDoorbellRegression{"doorbell_regression", "a doorbell moved the producer index backwards"};

// doorbell_regression: a doorbell moved the producer index backwards.
class DoorbellRegressionChecker : public Checker {
 public:
  using Checker::Checker;
  void on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index, Ps t) override;
};

}  // namespace symsim
