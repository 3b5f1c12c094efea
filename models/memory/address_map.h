// Answers "which PE, which region" for any simulated address: HBM of each PE, each core's
// Unified Buffer, and MMIO windows (doorbells). Regions are registered while the platform is
// built and looked up by binary search.
#pragma once
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
  // The region holding [p, p+len), or nullptr.
  const Region* find(const void* p, uint64_t len = 1) const;
  const std::vector<Region>& regions() const { return m_regions; }

 private:
  std::vector<Region> m_regions;  // sorted by begin, non-overlapping
  // m_regions[i].begin and .end, packed: find runs on every copy and poll, and searching these
  // touches a few cache lines where the Region records (with their names) touch one per step.
  std::vector<uintptr_t> m_begins, m_ends;
  // The two regions found last: a core's copies go back and forth between its Unified Buffer
  // and its PE's HBM, and a hit skips the search.
  mutable size_t m_recent[2] = {SIZE_MAX, SIZE_MAX};
};

}  // namespace symsim
