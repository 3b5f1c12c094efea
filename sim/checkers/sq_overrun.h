#pragma once

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kSqOverrun{"sq_overrun", "WQEs posted past the SQ depth, overwriting ones the engine had not read (no credit check)"};

// sq_overrun: a doorbell published WQEs past the ring before the engine read the old ones.
class SqOverrunChecker : public Checker {
 public:
  using Checker::Checker;
  void on_sq_overrun(const QpRef& q, uint32_t producer, uint32_t consumed, uint32_t depth, Ps t) override;
};

}  // namespace symsim
