#include "kernels/nvlink/pull/pull_dispatch.cuh"

#include "symsim_launch.cuh"

namespace {

// The rank count is a template parameter, as in DeepGEMM (SymBuffer<kNumRanks>): at one rank
// map() is the pointer itself, at more it reads the source's offset.
template <int kNumRanks>
__global__ void pull_dispatch(PullDispatchArgs a, layout::SymBuffer<kNumRanks> sym) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = static_cast<int>(sym.rank_idx), experts_per_rank = a.num_experts / kNumRanks;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* buf = smem + kPullMbarBytes + static_cast<size_t>(warp) * a.hidden_bytes;
  auto map = [&](int* p, int r) { return sym.map(p, static_cast<uint32_t>(r)); };

  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncwarp();
  comm::nvlink_barrier(a.ws, map, kNumRanks, sm, num_sms, thread);  // every rank's inputs are in place

  uint32_t phase = 0;
  const int pairs = kNumRanks * a.num_tokens;
  for (int p = static_cast<int>(sm * warps + warp); p < pairs; p += static_cast<int>(num_sms * warps)) {
    const int src = p / a.num_tokens, t = p % a.num_tokens;
    int e = -1;
    if (static_cast<int>(lane) < a.topk) e = ptx::ld_weak(sym.map(a.topk_idx + static_cast<int64_t>(t) * a.topk + lane, src));
    if (!__any_sync(0xffffffffu, e >= 0 && e / experts_per_rank == me)) continue;
    if (lane == 0) {
      const int slot = atomicAdd(a.recv_counter, 1);
      ptx::tma_store_wait<0>();  // the last token's store has read the buffer
      ptx::tma_load_1d(buf, sym.map(a.x + static_cast<int64_t>(t) * a.hidden_bytes, src), mbar,
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
  comm::nvlink_barrier(a.ws, map, kNumRanks, sm, num_sms, thread);  // nobody pulls any more
}

}  // namespace

template <int kNumRanks>
static int launch_for_ranks(int sms, int threads, const PullDispatchArgs& args, const layout::SymBuffer<>& sym) {
  return SYMSIM_LAUNCH_COOPERATIVE(pull_dispatch<kNumRanks>, dim3(sms), dim3(threads),
                                   static_cast<size_t>(pull_smem_bytes(threads / 32, args.hidden_bytes)), nullptr, args,
                                   layout::SymBuffer<kNumRanks>(sym));
}

int launch_pull_dispatch(int sms, int threads, const PullDispatchArgs& args, const layout::SymBuffer<>& sym) {
  switch (args.num_ranks) {
    case 1: return launch_for_ranks<1>(sms, threads, args, sym);
    case 2: return launch_for_ranks<2>(sms, threads, args, sym);
    case 4: return launch_for_ranks<4>(sms, threads, args, sym);
    case 8: return launch_for_ranks<8>(sms, threads, args, sym);
    default: return cudaErrorInvalidValue;  // the host driver checks the rank count first
  }
}
