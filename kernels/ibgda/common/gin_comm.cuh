// DeepEP V2-style barriers over Gin (reimplemented from shared/reference/nvidia-symmem.md 1c):
//  * gin_barrier: every warp flushes all QPs; grid sync; SM 0 signals every rank (an RDMA
//    atomic on the peer's signal word `me`) and waits until each rank's signal reaches its
//    shadow count; grid sync.
//  * gpu_barrier: TMA stores committed and waited; grid sync; SM 0 runs the scale-up (NVLink)
//    barrier while SM 1 runs the scale-out Gin barrier over this GPU's rail (the same local
//    index on every node); grid sync.
// Data written over NVLink reaches the peer by a different path than the RDMA signal, so the
// signalling threads first wait for it with fence.acq_rel.sys (DeepEP PR #715; commit
// dd758caf lacked it: `fence_sys` false reproduces that).
#pragma once
#include <cstdint>
#include <cstdio>

#include "kernels/nvlink/common/comm.cuh"
#include "gin_device.cuh"

namespace comm {

// Thread i < size signals team member first + i * stride and waits for that member's signal.
__device__ __forceinline__ void gin_signal_and_wait(const gin::Handle& h, int first, int stride, int size,
                                                    uint32_t thread_idx, bool fence_sys) {
  if (static_cast<int>(thread_idx) >= size) return;
  const int me = h.window.rank, peer = first + static_cast<int>(thread_idx) * stride;
  if (fence_sys) ptx::fence_acq_rel_sys();
  if (peer == me) {
    atomicAdd(reinterpret_cast<unsigned long long*>(h.signals + me), 1ull);
  } else {
    h.signal(peer, me, 1);
  }
  const uint64_t target = ++h.shadows[peer];  // this thread's own counter
  const long long start = clock64();
  while (h.read_signal(peer) < target) {
    if (clock64() - start > kTimeoutCycles) {
      printf("gin_barrier timeout: signal of rank %d is %llu, target %llu\n", peer,
             static_cast<unsigned long long>(h.read_signal(peer)), static_cast<unsigned long long>(target));
      __trap();
    }
  }
}

// Every warp waits for the ready WQEs of all QPs (their data has landed at the peers).
__device__ __forceinline__ void gin_flush_all(const gin::Handle& h, uint32_t thread_idx) {
  h.flush(thread_idx % 32, 32);
}

__device__ __forceinline__ void gin_barrier(const gin::Handle& h, Workspace* ws, uint32_t sm_idx, uint32_t num_sms,
                                            uint32_t thread_idx, bool fence_sys = true) {
  gin_flush_all(h, thread_idx);
  grid_sync(&ws->grid_sync_count[0], sm_idx, num_sms, thread_idx);
  if (sm_idx == 0) gin_signal_and_wait(h, 0, 1, h.window.n_ranks, thread_idx, fence_sys);
  grid_sync(&ws->grid_sync_count[0], sm_idx, num_sms, thread_idx);
}

// Needs 2 SMs or more. A full barrier for traffic within the NVLink domain and along the rail
// (the hybrid-mode pattern); other peers are not ordered by it.
__device__ __forceinline__ void gpu_barrier(const gin::Handle& h, Workspace* ws, uint32_t sm_idx, uint32_t num_sms,
                                            uint32_t thread_idx, bool fence_sys = true) {
  ptx::tma_store_commit();
  ptx::tma_store_wait<0>();
  grid_sync(&ws->grid_sync_count[0], sm_idx, num_sms, thread_idx);
  const int me = h.window.rank, lsa = h.window.lsa_size;
  if (sm_idx == 0) {
    const int first = me - me % lsa;
    auto map = [&](int* p, int i) { return h.get_sym_ptr(p, first + i); };
    nvlink_signal_and_wait(ws, map, lsa, thread_idx);
  } else if (sm_idx == 1) {
    gin_flush_all(h, thread_idx);
    __syncthreads();
    gin_signal_and_wait(h, me % lsa, lsa, h.window.n_ranks / lsa, thread_idx, fence_sys);
  }
  grid_sync(&ws->grid_sync_count[0], sm_idx, num_sms, thread_idx);
}

}  // namespace comm
