// nvlink_barrier test kernel: each round, thread r of every SM writes a round-stamped value
// into rank r's slot for (this rank, this SM) with a weak NVLink store, then all ranks pass
// nvlink_barrier; after it every SM reads the slots the other ranks wrote for it. The barrier
// must publish every SM's weak remote stores (grid-sync acquire, then SM 0's system-scope
// release: releases are cumulative).
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "sym_buffer.cuh"

// data: [rounds][ranks (writer)][sms] ints in the symmetric heap; errors: one int per rank.
int launch_nvlink_barrier_test(int sms, int threads, comm::Workspace* ws, layout::SymBuffer<> sym, int* data, int* errors,
                               int num_ranks, int rounds, int release_sys);

// The value rank `writer`'s SM `sm` stores in round `round`.
__host__ __device__ inline int nvlink_barrier_stamp(int round, int writer, int sm) {
  return 1 + round * 65536 + writer * 256 + sm;
}
