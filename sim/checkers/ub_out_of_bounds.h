#pragma once

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/per_core.h"

namespace symsim {

inline constexpr HazardId kUbOutOfBounds{"ub_out_of_bounds", "a Unified Buffer access outside the core's UB or its allocations"};

// ub_out_of_bounds: a copy touching Unified Buffer bytes outside the core's allocations.
class UbOutOfBoundsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_ub_layout(int pe, int core, const uint8_t* ub, uint64_t allocated, uint64_t ub_bytes) override;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);

 private:
  struct Layout {
    const uint8_t* ub = nullptr;
    uint64_t allocated = 0, ub_bytes = 0;
  };
  // One end of the copy, in a Unified Buffer. Inlined into on_copy, its one caller (GCC kept it
  // out of line, a call for each of the ~1.5 UB ends of every copy).
  [[gnu::always_inline]] bool allocated(const CopyRecord& c, const CheckerContext::Where& w, uint64_t bytes);
  [[gnu::noinline]] void report(const CopyRecord& c, const CheckerContext::Where& w, uint64_t bytes, const char* side);
  PerCore<Layout> m_layouts;
};

}  // namespace symsim
