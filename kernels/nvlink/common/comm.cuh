// Cross-SM and cross-GPU barriers in the style of DeepGEMM's comm/barrier.cuh and DeepEP's
// common/comm.cuh, reimplemented from the description in shared/reference/nvidia-symmem.md 1c:
//  * grid_sync: thread 0 of every SM does atom.release.gpu.add on a counter (SM 0 adds
//    0x80000000 - (n - 1), the others 1) and polls with ld.acquire.gpu until bit 31 flips.
//  * nvlink_barrier: grid_sync; SM 0's thread i does red.release.sys of +-1 on signal[phase]
//    of rank i; the counter advances; thread 0 polls its own signal with ld.acquire.sys until
//    it reaches N (or 0 on the way back: the two signal words reset themselves); grid_sync.
#pragma once
#include <cstdint>
#include <cstdio>

#include "symsim_ptx.cuh"

namespace comm {

// Lives in the symmetric heap, zeroed before first use.
struct Workspace {
  int nvl_barrier_counter;
  int nvl_barrier_signal[2];
  int pad0;
  uint32_t grid_sync_count[4];
};

// DeepGEMM's timeout: about 60 s at 2 GHz, then print and trap.
constexpr long long kTimeoutCycles = 60ll * 2000000000ll;

__device__ __forceinline__ void grid_sync(uint32_t* count, uint32_t sm_idx, uint32_t num_sms, uint32_t thread_idx) {
  __syncthreads();
  if (thread_idx == 0) {
    const uint32_t old = ptx::atomic_add_rel(count, sm_idx == 0 ? 0x80000000u - (num_sms - 1) : 1u);
    const long long start = clock64();
    while (((ptx::ld_acquire_gpu(count) ^ old) & 0x80000000u) == 0) {
      if (clock64() - start > kTimeoutCycles) {
        printf("grid_sync timeout: SM %u\n", sm_idx);
        __trap();
      }
    }
  }
  __syncthreads();
}

// SM 0's part of nvlink_barrier (every thread of SM 0 calls it): thread i signals rank i, then
// thread 0 waits for all ranks' signals. `map(p, r)` gives rank r's copy of the symmetric
// pointer p. With `release_sys` false the signals are red.release.gpu: too narrow a scope to
// publish other GPUs' data (a bug on purpose, for the scenarios that show what it does).
template <typename Map>
__device__ __forceinline__ void nvlink_signal_and_wait(Workspace* ws, const Map& map, int num_ranks, uint32_t thread_idx,
                                                       bool release_sys = true) {
  const int status = ptx::ld_weak(&ws->nvl_barrier_counter) & 3;
  const int phase = status & 1, sign = status >> 1;
  int* signal = &ws->nvl_barrier_signal[phase];
  if (static_cast<int>(thread_idx) < num_ranks) {
    int* peer_signal = map(signal, static_cast<int>(thread_idx));
    if (release_sys) {
      ptx::red_add_rel_sys(peer_signal, sign ? -1 : 1);
    } else {
      ptx::red_add_rel_gpu(peer_signal, sign ? -1 : 1);
    }
  }
  __syncthreads();
  if (thread_idx == 0) {
    ptx::red_add(&ws->nvl_barrier_counter, 1);
    const int target = sign ? 0 : num_ranks;
    const long long start = clock64();
    while (ptx::ld_acquire_sys(signal) != target) {
      if (clock64() - start > kTimeoutCycles) {
        printf("nvlink_barrier timeout: signal %d, target %d\n", ptx::ld_acquire_sys(signal), target);
        __trap();
      }
    }
  }
}

template <typename Map>
__device__ __forceinline__ void nvlink_barrier(Workspace* ws, const Map& map, int num_ranks, uint32_t sm_idx,
                                               uint32_t num_sms, uint32_t thread_idx, bool release_sys = true,
                                               int grid_sync_index = 0) {
  grid_sync(&ws->grid_sync_count[grid_sync_index], sm_idx, num_sms, thread_idx);
  if (sm_idx == 0) nvlink_signal_and_wait(ws, map, num_ranks, thread_idx, release_sys);
  grid_sync(&ws->grid_sync_count[grid_sync_index], sm_idx, num_sms, thread_idx);
}

}  // namespace comm
