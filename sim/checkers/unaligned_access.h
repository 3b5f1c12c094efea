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

 private:
  // The unusual case, out of line: its strings and Hazard would otherwise widen on_copy's stack
  // frame, whose lines every copy touches on a coroutine stack gone cold (docs/performance.md, s28-ep).
  [[gnu::cold, gnu::noinline]] void judge_copy(const CopyRecord& c);
};

}  // namespace symsim
