#include "kernels/nvlink/barrier/nvlink_barrier.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void nvlink_barrier_test(comm::Workspace* ws, layout::SymBuffer<> sym, int* data, int* errors, int num_ranks,
                                    int rounds, int release_sys) {
  const uint32_t sm = blockIdx.x, num_sms = gridDim.x, thread = threadIdx.x;
  const int me = static_cast<int>(sym.rank_idx);
  auto map = [&](int* p, int r) { return sym.map(p, static_cast<uint32_t>(r)); };
  for (int round = 0; round < rounds; ++round) {
    int* slots = data + static_cast<int64_t>(round) * num_ranks * num_sms;
    if (static_cast<int>(thread) < num_ranks)
      ptx::st_na(map(slots + me * num_sms + sm, static_cast<int>(thread)), nvlink_barrier_stamp(round, me, static_cast<int>(sm)));
    comm::nvlink_barrier(ws, map, num_ranks, sm, num_sms, thread, release_sys != 0);
    if (static_cast<int>(thread) < num_ranks) {
      const int got = ptx::ld_weak(slots + thread * num_sms + sm);
      if (got != nvlink_barrier_stamp(round, static_cast<int>(thread), static_cast<int>(sm))) atomicAdd(errors, 1);
    }
  }
}

}  // namespace

int launch_nvlink_barrier_test(int sms, int threads, comm::Workspace* ws, layout::SymBuffer<> sym, int* data, int* errors,
                               int num_ranks, int rounds, int release_sys) {
  return SYMSIM_LAUNCH_COOPERATIVE(nvlink_barrier_test, dim3(sms), dim3(threads), 0, nullptr, ws, sym, data, errors,
                                   num_ranks, rounds, release_sys);
}
