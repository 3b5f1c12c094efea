#include "kernels/ibgda/gin/gin_barrier_test.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void gin_barrier_test(GinBarrierArgs a) {
  const uint32_t sm = blockIdx.x, num_sms = gridDim.x, thread = threadIdx.x;
  const int me = a.gin.window.rank, ranks = a.gin.window.n_ranks, lsa = a.gin.window.lsa_size;
  const int peer = static_cast<int>(thread);
  for (int round = 0; round < a.rounds; ++round) {
    int* slots = a.data + static_cast<int64_t>(round) * ranks * num_sms;
    if (peer < ranks && gin_barrier_pair(a.mode, me, peer, lsa)) {
      int* slot = slots + me * num_sms + sm;  // symmetric: rank `peer`'s copy is the target
      const int stamp = gin_barrier_stamp(round, me, static_cast<int>(sm));
      if (int* p = a.gin.get_sym_ptr(slot, peer)) {
        ptx::st_na(p, stamp);
      } else {
        int* src = a.src + (static_cast<int64_t>(round) * ranks + peer) * num_sms + sm;  // never reused
        ptx::st_na(src, stamp);
        a.gin.put(slot, src, sizeof(int), peer);
      }
    }
    if (a.mode == 0) {
      comm::gin_barrier(a.gin, a.ws, sm, num_sms, thread, a.fence_sys != 0);
    } else {
      comm::gpu_barrier(a.gin, a.ws, sm, num_sms, thread, a.fence_sys != 0);
    }
    if (peer < ranks && gin_barrier_pair(a.mode, peer, me, lsa)) {
      const int got = ptx::ld_weak(slots + peer * num_sms + sm);
      if (got != gin_barrier_stamp(round, peer, static_cast<int>(sm))) atomicAdd(a.errors, 1);
    }
  }
}

}  // namespace

int launch_gin_barrier_test(int sms, int threads, const GinBarrierArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(gin_barrier_test, dim3(sms), dim3(threads), 0, nullptr, args);
}
