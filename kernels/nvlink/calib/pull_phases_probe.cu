// Issue 19, twelfth pass: pull_dispatch's phases at one PE, timed (as dispatch_phases_probe.cu
// is for intranode_dispatch). A copy of the kernel's body (kernels/nvlink/pull/pull_dispatch.cu,
// the same ptx:: and comm:: calls in the same order over the same arguments) with lane 0 of
// every warp stamping clock64 at its entry and at the end of each phase: the mbarrier's set-up,
// the first NVLink barrier, the loop over pairs, the last store's wait, the last barrier; and
// the GPU's global timer at entry and exit. Stamps stay in registers until the kernel's end.
// A kernel of its own: the application kernel stays as it is.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/pull/pull_dispatch.cuh"
#include "symsim_launch.cuh"

namespace {

// The GPU's global timer in ns (the simulator's time has no second clock: 0 there).
__device__ inline unsigned long long global_ns() {
#ifdef __CUDA_ARCH__
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return 0;
#endif
}

template <int kNumRanks>
__global__ void pull_phases_probe(PullDispatchArgs a, layout::SymBuffer<kNumRanks> sym, unsigned long long* stamps) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const long long entry = clock64();
  const unsigned long long g_entry = global_ns();
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = static_cast<int>(sym.rank_idx), experts_per_rank = a.num_experts / kNumRanks;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* buf = smem + kPullMbarBytes + static_cast<size_t>(warp) * a.hidden_bytes;
  auto map = [&](int* p, int r) { return sym.map(p, static_cast<uint32_t>(r)); };

  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncwarp();
  const long long set_up = clock64();
  comm::nvlink_barrier(a.ws, map, kNumRanks, sm, num_sms, thread);  // every rank's inputs are in place
  const long long barrier = clock64();

  uint32_t phase = 0;
  int steps = 0;
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
    ++steps;
  }
  const long long loop = clock64();
  if (lane == 0) ptx::tma_store_wait<0>();
  const long long store_wait = clock64();
  comm::nvlink_barrier(a.ws, map, kNumRanks, sm, num_sms, thread);  // nobody pulls any more
  const long long end = clock64();
  const unsigned long long g_end = global_ns();
  if (lane == 0) {
    unsigned long long* s = stamps + (static_cast<size_t>(sm) * warps + warp) * kPullPhaseStamps;
    s[0] = static_cast<unsigned long long>(set_up - entry);
    s[1] = static_cast<unsigned long long>(barrier - entry);
    s[2] = static_cast<unsigned long long>(loop - entry);
    s[3] = static_cast<unsigned long long>(store_wait - entry);
    s[4] = static_cast<unsigned long long>(end - entry);
    s[5] = g_entry;
    s[6] = g_end;
    s[7] = static_cast<unsigned long long>(steps);
  }
}

}  // namespace

int launch_pull_phases_probe(int ctas, int threads, const PullDispatchArgs& args, unsigned long long* stamps) {
  if (args.num_ranks != 1) return cudaErrorInvalidValue;  // one PE: the probe's window is this rank's
  return SYMSIM_LAUNCH_COOPERATIVE(pull_phases_probe<1>, dim3(ctas), dim3(threads),
                                   static_cast<size_t>(pull_smem_bytes(threads / 32, args.hidden_bytes)), nullptr, args,
                                   layout::SymBuffer<1>(layout::SymBuffer<>{}), stamps);
}
