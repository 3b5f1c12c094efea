#pragma once
#include <vector>
#include <string>
#include <utility>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kGmOutOfBounds{"gm_out_of_bounds", "a GM access outside any allocation or registered region"};

// gm_out_of_bounds: a copy or DMA outside every allocation and registered region.
class GmOutOfBoundsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_alloc(int pe, const char* kind, const uint8_t* p, uint64_t bytes) override;
  void on_copy(const CopyRecord& c) override;
  void on_wqe_executed(const WqeRecord& r) override;
  struct Alloc {
    const uint8_t* begin;
    const uint8_t* end;
    const char* kind;
  };

 private:
  // The allocation holding [p, p+len), or null; `near` gets the one p falls in or after.
  bool inside(const uint8_t* p, uint64_t len, std::string* near) const;
  std::vector<Alloc> m_allocs;  // sorted by begin: searched on every copy and WQE
  // The allocations found last (a core's copies go back and forth between a few buffers).
  mutable std::pair<const uint8_t*, const uint8_t*> m_recent[2] = {};
};

}  // namespace symsim
