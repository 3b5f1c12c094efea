// gin_barrier / gpu_barrier test kernel: each round, thread r of every SM writes a stamp for
// (this rank, this SM) into rank r's slot, by a weak NVLink store when rank r is in this NVLink
// domain and by a Gin put (RDMA WRITE) otherwise; then all ranks pass the barrier, and every
// SM reads the slots the others wrote for it. mode 0: gin_barrier over all ranks; mode 1:
// gpu_barrier (scale-up + rail), where only NVLink-domain and rail peers write.
#pragma once
#include <cstdint>

#include "kernels/ibgda/common/gin_comm.cuh"

struct GinBarrierArgs {
  gin::Handle gin;
  comm::Workspace* ws;  // symmetric, zero
  int* data;            // symmetric: [rounds][ranks (writer)][sms] ints
  int* src;             // local: the put sources, [rounds][ranks (target)][sms] ints
  int* errors;          // local: stale slots read after a barrier
  int rounds;
  int mode;             // 0: gin_barrier, 1: gpu_barrier
  int fence_sys;        // fence.acq_rel.sys before the Gin signals (DeepEP PR #715)
};

int launch_gin_barrier_test(int sms, int threads, const GinBarrierArgs& args);

// Whether `writer` writes to `reader` in this mode (gpu_barrier orders domain and rail only).
__host__ __device__ inline bool gin_barrier_pair(int mode, int writer, int reader, int lsa_size) {
  return mode == 0 || writer / lsa_size == reader / lsa_size || writer % lsa_size == reader % lsa_size;
}

// The value rank `writer`'s SM `sm` stores in round `round`.
__host__ __device__ inline int gin_barrier_stamp(int round, int writer, int sm) {
  return 1 + round * 65536 + writer * 256 + sm;
}
