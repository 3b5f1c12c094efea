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
  void on_copy(const CopyRecord& c) override;

 private:
  struct Layout {
    const uint8_t* ub = nullptr;
    uint64_t allocated = 0, ub_bytes = 0;
  };
  void check(const CopyRecord& c, const uint8_t* p, uint64_t bytes, const char* side);
  PerCore<Layout> m_layouts;
};

}  // namespace symsim
