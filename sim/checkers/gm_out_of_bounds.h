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
  // Allocations found before, direct-mapped by the 1 MiB granule of the address looked up: the
  // WQEs of many PEs alternate between their buffers, and a hit costs one slot's compares.
  // (Hashed: the PEs' memories lie at multiples of a large power of two, so low bits collide.)
  static constexpr size_t kRecent = 256;
  static size_t recent_slot(const uint8_t* p) {
    return static_cast<size_t>(((reinterpret_cast<uintptr_t>(p) >> 20) * 0x9E3779B97F4A7C15ull) >> 56);
  }
  // Two ways: a granule found lands in its slot and the slot's previous one moves to the
  // neighbour (slot ^ 1), so two granules that hash alike and alternate both stay.
  mutable std::pair<const uint8_t*, const uint8_t*> m_recent[kRecent] = {};
  bool cached(const uint8_t* p, uint64_t len) const {
    const size_t s = recent_slot(p);
    const auto& a = m_recent[s];
    const auto& b = m_recent[s ^ 1];
    return (p >= a.first && p + len <= a.second) || (p >= b.first && p + len <= b.second);
  }
  void remember(const uint8_t* p, const uint8_t* begin, const uint8_t* end) const {
    const size_t s = recent_slot(p);
    m_recent[s ^ 1] = m_recent[s];
    m_recent[s] = {begin, end};
  }
};

}  // namespace symsim
