// One PE's device memory: a sparse HBM mapping carved into a metadata area (QP tables and
// contexts), queue rings, plain device allocations, and the symmetric heap the UDMA engine
// accepts as a remote target (registered with a token).
#pragma once
#include <cstdint>
#include <memory>

#include "models/ascend/wqe_layout.h"
#include "models/memory/sparse_region.h"

namespace symsim {

struct PeMemory {
  int pe = 0;
  SparseRegion hbm;
  BumpAllocator hbm_alloc;     // carve-outs: metadata, device allocations, the heap
  BumpAllocator heap;          // the symmetric heap (registered for remote access)
  SparseRegion queue_region;   // SQ and CQ rings, reserved once the QP count is known
  BumpAllocator rings;
  bool warm_ring_tables = false;  // ring page tables made ahead on a helper thread (page_table_warmer.h)
  uint32_t heap_token = 0;  // token a remote WRITE/READ must present
  udma::Eid eid{};

  bool in_heap(uint64_t va, uint64_t len) const {
    const auto b = reinterpret_cast<uint64_t>(heap.base());
    return heap.size() > 0 && va >= b && len <= heap.size() && va - b <= heap.size() - len;
  }
  bool in_hbm(uint64_t va, uint64_t len) const {
    return hbm.contains(reinterpret_cast<const void*>(va), len) ||
           queue_region.contains(reinterpret_cast<const void*>(va), len);
  }
};

// The endpoint id the platform gives PE `pe` (16 bytes: "UBPE" + pe, little-endian).
inline udma::Eid eid_of_pe(int pe) {
  udma::Eid e{};
  e[0] = 'U';
  e[1] = 'B';
  e[2] = 'P';
  e[3] = 'E';
  for (int i = 0; i < 4; ++i) e[4 + i] = static_cast<uint8_t>(static_cast<uint32_t>(pe) >> (8 * i));
  return e;
}
// The PE an EID names, or -1.
inline int pe_of_eid(const udma::Eid& e, int n_pes) {
  if (e[0] != 'U' || e[1] != 'B' || e[2] != 'P' || e[3] != 'E') return -1;
  uint32_t pe = 0;
  for (int i = 0; i < 4; ++i) pe |= static_cast<uint32_t>(e[4 + i]) << (8 * i);
  for (int i = 8; i < 16; ++i)
    if (e[i] != 0) return -1;
  return pe < static_cast<uint32_t>(n_pes) ? static_cast<int>(pe) : -1;
}

}  // namespace symsim
