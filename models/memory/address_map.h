// Answers "which PE, which region" for any simulated address: HBM of each PE, each core's
// Unified Buffer, and MMIO windows (doorbells). Regions are registered while the platform is
// built and looked up by binary search, behind a table of the chunks met.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/probe_table.h"

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
    const auto& s = m_cache.home(static_cast<uint32_t>(a >> kChunkShift));
    if (s.key == static_cast<uint32_t>(a >> kChunkShift) && a >= m_begins[s.value] && a < m_ends[s.value])
      return a + len > m_ends[s.value] ? nullptr : &m_regions[s.value];
    return find_uncached(a, len);
  }
  const std::vector<Region>& regions() const { return m_regions; }

 private:
  // The region last found in each 64 KiB chunk, in an open-addressed table (linear probing)
  // that grows with the chunks met and never evicts one: a run's lookups go to every PE's
  // Unified Buffers, buffers and rings, whose chunks outgrow any fixed cache as PEs are added
  // (EP 64 met 26,106 chunks, EP 256 202,092; a direct-mapped 2,048 slots missed 3.7
  // times per WQE, each miss a binary search). At most a quarter full: a chunk not in its home
  // slot costs the out-of-line probe (at half full, 716 k of EP 64's lookups, 3.3 slots each;
  // at a quarter, 428 k and 2.3). A chunk holding two regions' ends keeps the one found last; a
  // slot is only a hint, checked against the region's bounds (so the chunk's low 32 bits are
  // enough: 48-bit addresses, and a false match fails the bounds).
  static constexpr unsigned kChunkShift = 16;
  static constexpr unsigned kInitialSlotBits = 11;
  static constexpr uint32_t kEmpty = UINT32_MAX;
  const Region* find_uncached(uintptr_t a, uint64_t len) const;

  std::vector<Region> m_regions;  // sorted by begin, non-overlapping
  // m_regions[i].begin and .end, packed: a search touches a few cache lines where the Region
  // records (with their names) touch one per step.
  std::vector<uintptr_t> m_begins, m_ends;
  // Chunk (its low 32 bits) -> index in m_regions; doubles past a quarter full.
  mutable ProbeTable<uint32_t, uint32_t, kEmpty> m_cache{kInitialSlotBits, 2};
};

}  // namespace symsim
