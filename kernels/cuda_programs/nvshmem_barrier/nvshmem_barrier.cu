// NVSHMEM's block barrier and quiet on the NIC model, checked by what they must guarantee:
// every PE sleeps a different time before each of ROUNDS barriers and records (in simulated ns,
// %globaltimer) when it entered and left; no PE may leave a barrier before the last PE entered
// it. With P2P off every signal is a 4-byte RDMA fetch-add the barrier posts on an RC QP
// (mlx5 WQE, doorbell, CQ of the NIC model); with P2P on, peers of the NVLink domain get a
// release add over NVLink. Also checks nvshmem_ptr (NVLink reach) and the IBGDA state's keys.
//   nvshmem_barrier RANK RANKS ROUNDS P2P
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "symsim/cuda/runtime.h"

__device__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// times[2 * round] = entry, times[2 * round + 1] = exit
__global__ void barrier_rounds(uint64_t* times, int rounds, int me) {
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      __nanosleep(static_cast<unsigned>(2000 * ((me + r) % 4)));
      times[2 * r] = now_ns();
    }
    nvshmemx_barrier_all_block();
    if (threadIdx.x == 0) times[2 * r + 1] = now_ns();
  }
  nvshmem_quiet();
}

int main(int argc, char** argv) {
  if (argc < 5) return std::fprintf(stderr, "usage: %s RANK RANKS ROUNDS P2P\n", argv[0]), 2;
  const int me = std::atoi(argv[1]), n = std::atoi(argv[2]), rounds = std::atoi(argv[3]);
  setenv("NVSHMEM_DISABLE_P2P", std::atoi(argv[4]) ? "0" : "1", 1);
  if (nvshmem_init() != 0) return 1;
  auto* times = static_cast<uint64_t*>(nvshmem_malloc(sizeof(uint64_t) * 2 * rounds));
  cudaMemset(times, 0, sizeof(uint64_t) * 2 * rounds);
  int errors = 0;
  // nvshmem_ptr: this PE's own copy, and a peer's only where NVLink reaches it.
  if (nvshmem_ptr(times, me) != times) ++errors;
  const int domain = symsim::cuda::nvlink_domain_size();
  for (int p = 0; p < n; ++p) {
    const bool reach = p == me || (std::atoi(argv[4]) && p / domain == me / domain);
    if ((nvshmem_ptr(times, p) != nullptr) != reach) ++errors;
  }
  barrier_rounds<<<1, 64>>>(times, rounds, me);
  if (cudaDeviceSynchronize() != cudaSuccess) return std::fprintf(stderr, "barrier kernel failed\n"), 1;
  nvshmem_barrier_all();
  // Every PE's times from the symmetric heap (the same offset on every GPU).
  std::vector<uint64_t> all(static_cast<size_t>(n) * 2 * rounds);
  const int64_t stride = static_cast<int64_t>(symsim::cuda::sym_heap_stride());
  for (int p = 0; p < n; ++p)
    cudaMemcpy(&all[static_cast<size_t>(p) * 2 * rounds], reinterpret_cast<uint8_t*>(times) + (p - me) * stride,
               sizeof(uint64_t) * 2 * rounds, cudaMemcpyDeviceToHost);
  for (int r = 0; r < rounds; ++r) {
    uint64_t last_entry = 0;
    for (int p = 0; p < n; ++p) last_entry = std::max(last_entry, all[(static_cast<size_t>(p) * rounds + r) * 2]);
    const uint64_t exit = all[(static_cast<size_t>(me) * rounds + r) * 2 + 1];
    if (exit < last_entry) ++errors;
    if (me == 0)
      std::printf("round %d: last entry %.3f us, PE 0 left %.3f us after it\n", r, last_entry / 1e3, (exit - last_entry) / 1e3);
  }
  nvshmem_barrier_all();
  std::printf("nvshmem barrier: PE %d of %d, %d rounds, %d errors\n", me, n, rounds, errors);
  nvshmem_finalize();
  return errors == 0 ? 0 : 1;
}
