#pragma once

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kUnalignedAccess{"unaligned_access", "a DataCopy or DMA that breaks the 32 B alignment rules"};

// unaligned_access: a DataCopy that breaks the 32 B rules (length, UB address).
class UnalignedAccessChecker : public Checker {
 public:
  using Checker::Checker;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
};

}  // namespace symsim
