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
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_executed(const WqeRecord& r);
  struct Alloc {
    const uint8_t* begin;
    const uint8_t* end;
    const char* kind;
  };

 private:
  // Reports each side of r's ranges (local, remote) outside every allocation.
  void check(const WqeRecord& r, uint64_t local_len, uint64_t remote_len);
  // The allocation holding [p, p+len), or null; `near` gets the one p falls in or after.
  bool inside(const uint8_t* p, uint64_t len, std::string* near) const;
  std::vector<Alloc> m_allocs;  // sorted by begin: searched on every copy and WQE
  // The allocation found last in each 1 MiB granule, in an open-addressed table (linear
  // probing) that grows with the granules met and never evicts one: the WQEs and copies of all
  // PEs go to every PE's buffers, whose granules outgrow any fixed cache as PEs are added (EP 64
  // met 1,152; a 256-slot cache missed 2.5 times per WQE, each miss a binary search). A hit
  // costs one slot's compares. (Hashed: the PEs' memories lie at multiples of a large power of
  // two, so low bits collide.)
  static constexpr unsigned kGranuleShift = 20;
  static constexpr unsigned kInitialSlotBits = 8;
  static constexpr uint64_t kEmpty = UINT64_MAX;
  struct Slot {
    uint64_t granule = kEmpty;
    const uint8_t* begin = nullptr;
    const uint8_t* end = nullptr;
  };
  mutable std::vector<Slot> m_recent = std::vector<Slot>(size_t{1} << kInitialSlotBits);
  mutable unsigned m_slot_shift = 64 - kInitialSlotBits;
  mutable size_t m_remembered = 0;  // slots in use: the table doubles past half full
  size_t slot_of(uint64_t granule) const { return (granule * 0x9E3779B97F4A7C15ull) >> m_slot_shift; }
  static uint64_t granule_of(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) >> kGranuleShift; }
  // Inline, the granule's first slot only; inside() probes on.
  bool cached(const uint8_t* p, uint64_t len) const {
    const Slot& s = m_recent[slot_of(granule_of(p))];
    return s.granule == granule_of(p) && p >= s.begin && p + len <= s.end;
  }
  bool probed(const uint8_t* p, uint64_t len) const;
  void remember(const uint8_t* p, const uint8_t* begin, const uint8_t* end) const;
};

}  // namespace symsim
