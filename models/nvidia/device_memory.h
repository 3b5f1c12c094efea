// HBM of every GPU in one flat reservation: GPU g's memory starts at base + g * stride, so a
// peer's copy of a symmetric buffer is at a fixed distance (the NCCL "LSA flat" layout), and
// "which GPU owns this pointer" is one subtraction and one division. Each GPU's memory is
// carved the same way: a runtime area (NIC queues, runtime counters), the symmetric heap
// (collective allocations, identical offsets everywhere), then private allocations.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/memory/sparse_region.h"

namespace symsim::nv {

class DeviceMemory {
 public:
  static constexpr uint64_t kRuntimeBytes = uint64_t{256} << 20;

  DeviceMemory(int n_gpus, uint64_t hbm_bytes);

  int n_gpus() const { return m_n_gpus; }
  uint8_t* base(int gpu) const { return m_region.base() + static_cast<uint64_t>(gpu) * m_stride; }
  uint64_t stride() const { return m_stride; }
  uint64_t hbm_bytes() const { return m_hbm_bytes; }
  // The GPU whose HBM holds p, or -1.
  int gpu_of(const void* p) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    const auto b = reinterpret_cast<uintptr_t>(m_region.base());
    if (a < b) return -1;
    const uint64_t g = (a - b) / m_stride;
    if (g >= static_cast<uint64_t>(m_n_gpus) || (a - b) % m_stride >= m_hbm_bytes) return -1;
    return static_cast<int>(g);
  }
  // True when [p, p+len) lies inside one GPU's HBM.
  bool in_hbm(const void* p, uint64_t len) const {
    const int g = gpu_of(p);
    return g >= 0 && len <= m_hbm_bytes &&
           static_cast<uint64_t>(static_cast<const uint8_t*>(p) - base(g)) <= m_hbm_bytes - len;
  }

  // Runtime area of `gpu` (NIC rings, counters), carved in order.
  uint8_t* runtime_alloc(int gpu, uint64_t bytes, uint64_t align);
  // Symmetric heap: every GPU makes the same calls in the same order, so offsets agree.
  uint8_t* sym_alloc(int gpu, uint64_t bytes, uint64_t align);
  uint8_t* sym_base(int gpu) const { return base(gpu) + kRuntimeBytes; }
  uint64_t sym_used(int gpu) const { return m_gpus[gpu].sym.used(); }
  // Private device allocation (cudaMalloc).
  uint8_t* private_alloc(int gpu, uint64_t bytes, uint64_t align);
  // Large private allocations are aligned as the GPU's driver aligns them (a 2 MiB page).
  static constexpr uint64_t kLargeAllocAlign = uint64_t{2} << 20;
  // "gpu1.heap+0x200", "gpu0.runtime+0x40", "gpu2.dev+0x0"; empty outside HBM. Host addresses
  // change from run to run, so reports name memory this way (results stay byte-identical).
  std::string name(const void* p) const;

 private:
  uint64_t priv_offset() const;  // the private carve's device offset: the heap's end, 2 MiB aligned
  struct Carve {
    BumpAllocator runtime, sym, priv;
  };
  int m_n_gpus;
  uint64_t m_hbm_bytes;
  uint64_t m_stride;
  SparseRegion m_region;
  std::vector<Carve> m_gpus;
};

}  // namespace symsim::nv
