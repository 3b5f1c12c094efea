// Answers "which PE, which region" for any simulated address: HBM of each PE, each core's
// Unified Buffer, and MMIO windows (doorbells). Regions are registered while the platform is
// built and looked up by binary search.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/time.h"

namespace symsim {

// A device register window: a store to it is an event for the device, not a memory write.
class MmioTarget {
 public:
  virtual ~MmioTarget() = default;
  virtual void mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) = 0;
};

enum class RegionKind { kHbm, kUnifiedBuffer, kMmio };

struct Region {
  uintptr_t begin = 0;
  uintptr_t end = 0;  // one past the last byte
  int pe = -1;
  int core = -1;  // for Unified Buffers
  RegionKind kind = RegionKind::kHbm;
  MmioTarget* mmio = nullptr;
  std::string name;
};

class AddressMap {
 public:
  void add(Region r);
  // The region holding [p, p+len), or nullptr. Inline: the checkers, copies and vector
  // instructions look up about 50 addresses per MoE WQE, nearly all found in the cache.
  const Region* find(const void* p, uint64_t len = 1) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    const Slot& s = m_cache[slot_of(a >> kChunkShift)];
    if (s.chunk == a >> kChunkShift && a >= m_begins[s.index] && a < m_ends[s.index])
      return a + len > m_ends[s.index] ? nullptr : &m_regions[s.index];
    return find_uncached(a, len);
  }
  const std::vector<Region>& regions() const { return m_regions; }

 private:
  // The region last found in each 64 KiB chunk, direct-mapped by a hash of the chunk: the
  // cores of all PEs interleave, and their Unified Buffers and HBM (the same offsets on every
  // PE) would thrash a cache of the last few regions. A chunk holding two regions' ends keeps
  // the one found last; a slot is only a hint, checked against the region's bounds.
  static constexpr unsigned kChunkShift = 16;
  static constexpr unsigned kSlotBits = 11;
  struct Slot {
    uintptr_t chunk = UINTPTR_MAX;
    size_t index = 0;
  };
  static size_t slot_of(uintptr_t chunk) { return (chunk * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits); }
  const Region* find_uncached(uintptr_t a, uint64_t len) const;

  std::vector<Region> m_regions;  // sorted by begin, non-overlapping
  // m_regions[i].begin and .end, packed: a search touches a few cache lines where the Region
  // records (with their names) touch one per step.
  std::vector<uintptr_t> m_begins, m_ends;
  mutable std::array<Slot, size_t{1} << kSlotBits> m_cache{};
};

}  // namespace symsim
