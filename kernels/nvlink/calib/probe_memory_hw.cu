// symsim-hw's side of probe_memory.h: the probe's blocks kept for the process's life (one
// scenario per process) and L2 emptied of them by reading other memory.
#include "kernels/nvlink/calib/probe_memory.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace calib_probe_memory {

namespace {

constexpr size_t kReadOutBytes = size_t{160} << 20;  // as calib_probe's `hot` 2: well past the 60 MiB L2

struct Block {
  void* p = nullptr;
  size_t bytes = 0;
};

std::mutex g_mutex;
std::map<std::pair<int, int>, Block> g_blocks;  // (rank, slot) -> its block

// Each thread sums its 16 B words (clean reads: the lines they evict are written back once,
// and L2 is left holding this buffer's unmodified lines); one word stored keeps the loads.
__global__ void read_out(const uint4* p, size_t words, unsigned* sink) {
  unsigned sum = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = p[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0x9e3779b9u) *sink = sum;  // almost never: the loads must not be dropped
}

}  // namespace

void* device_block(int rank, Slot slot, size_t bytes) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  Block& b = g_blocks[{rank, static_cast<int>(slot)}];
  if (b.p && b.bytes == bytes) return b.p;
  if (b.p) cudaFree(b.p);
  b = Block{};
  if (cudaMalloc(&b.p, bytes) != cudaSuccess) throw std::runtime_error("calib_probe: cudaMalloc failed");
  b.bytes = bytes;
  return b.p;
}

void push_out_of_l2(int rank) {
  // Slot kSlots: past the probe's own, so it is never one of them.
  auto* buf = static_cast<const uint4*>(device_block(rank, kSlots, kReadOutBytes + sizeof(unsigned)));
  auto* sink = reinterpret_cast<unsigned*>(reinterpret_cast<uintptr_t>(buf) + kReadOutBytes);
  read_out<<<264, 1024>>>(buf, kReadOutBytes / sizeof(uint4), sink);
  if (cudaDeviceSynchronize() != cudaSuccess) throw std::runtime_error("calib_probe: reading L2 out failed");
}

}  // namespace calib_probe_memory
