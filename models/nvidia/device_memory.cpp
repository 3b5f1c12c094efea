#include "models/nvidia/device_memory.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace symsim::nv {

namespace {
constexpr uint64_t kGranule = uint64_t{2} << 20;  // cuMem mapping granularity
}

DeviceMemory::DeviceMemory(int n_gpus, uint64_t hbm_bytes)
    : m_n_gpus(n_gpus),
      m_hbm_bytes(hbm_bytes),
      m_stride((hbm_bytes + kGranule - 1) / kGranule * kGranule),
      m_region(m_stride * static_cast<uint64_t>(n_gpus), true, "gpu.hbm"),
      m_gpus(n_gpus) {
  if (hbm_bytes < 2 * kRuntimeBytes) throw std::invalid_argument("hbm.bytes is too small for the runtime area");
  const uint64_t sym_bytes = (hbm_bytes - kRuntimeBytes) / 2;
  for (int g = 0; g < n_gpus; ++g) {
    m_gpus[g].runtime = BumpAllocator(base(g), kRuntimeBytes);
    m_gpus[g].sym = BumpAllocator(base(g) + kRuntimeBytes, sym_bytes);
    m_gpus[g].priv = BumpAllocator(base(g) + priv_offset(), hbm_bytes - priv_offset());
  }
}

namespace {
uint8_t* take(BumpAllocator& a, uint64_t bytes, uint64_t align, const char* what, int gpu) {
  uint8_t* p = a.allocate(bytes, align);
  if (!p) throw std::runtime_error(std::string(what) + " of GPU " + std::to_string(gpu) + " is exhausted");
  return p;
}
}  // namespace

uint8_t* DeviceMemory::runtime_alloc(int gpu, uint64_t bytes, uint64_t align) {
  return take(m_gpus[gpu].runtime, bytes, align, "the runtime area", gpu);
}
uint8_t* DeviceMemory::sym_alloc(int gpu, uint64_t bytes, uint64_t align) {
  return take(m_gpus[gpu].sym, bytes, align, "the symmetric heap", gpu);
}
std::string DeviceMemory::name(const void* p) const {
  const int g = gpu_of(p);
  if (g < 0) return "";
  const uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - base(g));
  const uint64_t sym_bytes = (m_hbm_bytes - kRuntimeBytes) / 2;
  const uint64_t priv = priv_offset();
  char buf[64];
  if (off < kRuntimeBytes) {
    std::snprintf(buf, sizeof(buf), "gpu%d.runtime+%#llx", g, static_cast<unsigned long long>(off));
  } else if (off < kRuntimeBytes + sym_bytes) {
    std::snprintf(buf, sizeof(buf), "gpu%d.heap+%#llx", g, static_cast<unsigned long long>(off - kRuntimeBytes));
  } else if (off < priv) {
    std::snprintf(buf, sizeof(buf), "gpu%d.heap+%#llx", g, static_cast<unsigned long long>(off - kRuntimeBytes));
  } else {
    std::snprintf(buf, sizeof(buf), "gpu%d.dev+%#llx", g, static_cast<unsigned long long>(off - priv));
  }
  return buf;
}

// Private allocations start on a cuMem granule, as the GPU's large cudaMalloc windows do: their
// device-offset bits 12-20 are then the GPU's (sm.load_far_partition_bits).
uint64_t DeviceMemory::priv_offset() const {
  const uint64_t sym_bytes = (m_hbm_bytes - kRuntimeBytes) / 2;
  return (kRuntimeBytes + sym_bytes + kGranule - 1) / kGranule * kGranule;
}

uint8_t* DeviceMemory::private_alloc(int gpu, uint64_t bytes, uint64_t align) {
  return take(m_gpus[gpu].priv, bytes, align, "device memory", gpu);
}

}  // namespace symsim::nv
