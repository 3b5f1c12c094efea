#include "kernels/nvlink/pull/pull_dispatch.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void pull_dispatch(PullDispatchArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = static_cast<int>(a.sym.rank_idx), experts_per_rank = a.num_experts / a.num_ranks;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* buf = smem + kPullMbarBytes + static_cast<size_t>(warp) * a.hidden_bytes;
  auto map = [&](int* p, int r) { return a.sym.map(p, static_cast<uint32_t>(r)); };

  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncwarp();
  comm::nvlink_barrier(a.ws, map, a.num_ranks, sm, num_sms, thread);  // every rank's inputs are in place

  uint32_t phase = 0;
  const int pairs = a.num_ranks * a.num_tokens;
  for (int p = static_cast<int>(sm * warps + warp); p < pairs; p += static_cast<int>(num_sms * warps)) {
    const int src = p / a.num_tokens, t = p % a.num_tokens;
    int e = -1;
    if (static_cast<int>(lane) < a.topk) e = ptx::ld_weak(a.sym.map(a.topk_idx + static_cast<int64_t>(t) * a.topk + lane, src));
    if (!__any_sync(0xffffffffu, e >= 0 && e / experts_per_rank == me)) continue;
    if (lane == 0) {
      const int slot = atomicAdd(a.recv_counter, 1);
      ptx::tma_store_wait<0>();  // the last token's store has read the buffer
      ptx::tma_load_1d(buf, a.sym.map(a.x + static_cast<int64_t>(t) * a.hidden_bytes, src), mbar,
                       static_cast<uint32_t>(a.hidden_bytes));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(a.hidden_bytes));
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      ptx::tma_store_1d(a.recv_x + static_cast<int64_t>(slot) * a.hidden_bytes, buf, static_cast<uint32_t>(a.hidden_bytes));
      ptx::tma_store_commit();
      ptx::st_na(a.recv_src + 2 * slot, src);
      ptx::st_na(a.recv_src + 2 * slot + 1, t);
    }
    __syncwarp();
  }
  if (lane == 0) ptx::tma_store_wait<0>();
  comm::nvlink_barrier(a.ws, map, a.num_ranks, sm, num_sms, thread);  // nobody pulls any more
}

}  // namespace

int launch_pull_dispatch(int sms, int threads, const PullDispatchArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(pull_dispatch, dim3(sms), dim3(threads),
                                   static_cast<size_t>(pull_smem_bytes(threads / 32, args.hidden_bytes)), nullptr, args);
}
