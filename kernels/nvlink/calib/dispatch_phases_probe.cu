// Issue 19, seventh pass, second call: intranode_dispatch's phases at one PE, timed. A copy of
// the kernel's body (kernels/nvlink/intranode/intranode_dispatch.cu, the same ptx:: and comm::
// calls in the same order, the symmetric pointers of one PE being the local ones) with thread
// 0 of each CTA stamping clock64 at the end of phase `inflight`: 1 the send loop and the first
// grid sync, 2 then the counts, the signal round and the second grid sync, 3 then the receive
// side (the whole kernel). A kernel of its own: the application kernel stays as it is.
// Eighth pass, second call: `inflight` + 8 reads ranks, top-k and experts per rank from the
// arguments, as the application kernel did, so that its loops' bounds and `before[64]` are no
// longer compile-time constants (the application's 272 B stack frame). Ninth pass: + 16, 32,
// 64, 128 make one of them run-time alone (kRunTime's bits): 1 the rank count of the counts'
// step and the signal round, 2 top-k, 4 the experts-per-rank division, 8 the receive side's
// rank count (its loops and `before[64]`, then in local memory). + 8 is all four.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/common/comm.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

// The GPU's global timer in ns, to check clock64's ticks against real time (the host turns
// ticks into ns at 1.98 per ns); the simulator's time has no second clock: 0 there.
__device__ inline unsigned long long global_ns() {
#ifdef __CUDA_ARCH__
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return 0;
#endif
}

struct PhaseHeader {  // DispatchHeader's layout
  int token, src_rank, pad[2];
};

constexpr int kRunTimeRanks = 1, kRunTimeTopk = 2, kRunTimeExperts = 4, kRunTimeReceive = 8;

template <int kRunTime>
__global__ void dispatch_phases_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int ranks = (kRunTime & kRunTimeRanks) ? a.ranks : 1, me = 0;
  const int topk = (kRunTime & kRunTimeTopk) ? a.topk : 8;
  const int experts_per_rank = (kRunTime & kRunTimeExperts) ? a.experts / a.ranks : 64, tokens = a.per_thread;
  const int receive_ranks = (kRunTime & kRunTimeReceive) ? a.ranks : 1;
  const int hidden = static_cast<int>(a.bytes), msg_bytes = static_cast<int>(sizeof(PhaseHeader)) + hidden;
  // The window: x [tokens][hidden], recv_buf [tokens][msg], recv_x [tokens][msg];
  // `word`: the workspace, the counter, the count, the total, then the routing table.
  const uint8_t* x = a.buf;
  uint8_t* recv_buf = a.buf + static_cast<int64_t>(tokens) * hidden;
  uint8_t* recv_x = recv_buf + static_cast<int64_t>(tokens) * msg_bytes;
  auto* ws = reinterpret_cast<comm::Workspace*>(a.word);
  int* send_counter = a.word + kDispatchProbeCounterInt;
  int* recv_count = send_counter + 1;
  int* recv_total = send_counter + 2;
  const int* topk_idx = send_counter + 4;
  auto map = [](int* p, int) { return p; };
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * msg_bytes;

  const long long entry = clock64();
  const int until = a.inflight & 3;
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  const long long t0 = (a.inflight & 4) ? entry : clock64();
  const unsigned long long g0 = global_ns();
  long long stamp = until == 0 ? clock64() - t0 : 0;
  unsigned long long gstamp = 0;
  uint32_t phase = 0;
  int k = 0;
  for (int t = static_cast<int>(sm * warps + warp); t < tokens; t += static_cast<int>(num_sms * warps), ++k) {
    uint8_t* buf = bufs + (k & 1) * msg_bytes;
    ptx::tma_store_wait<1>();
    __syncwarp();
    if (lane == 0) {
      auto* h = reinterpret_cast<PhaseHeader*>(buf);
      h->token = t;
      h->src_rank = me;
      ptx::tma_load_1d(buf + sizeof(PhaseHeader), x + static_cast<int64_t>(t) * hidden, mbar, static_cast<uint32_t>(hidden));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(hidden));
    }
    ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    int dst = -1;
    if (static_cast<int>(lane) < topk) {
      const int e = ptx::ldg(topk_idx + static_cast<int64_t>(t) * topk + lane);
      dst = e >= 0 ? e / experts_per_rank : -1;
    }
    bool first = dst >= 0;
    // With a constant top-k the SASS unrolls this loop, its 8 shuffles back to back (session 31's
    // call D1: dispatch_phases_probe<0>, <1>, <4>, <8>); a run-time top-k (<2>, <15>) rolls it.
    ptx::unrolled_shuffles((kRunTime & kRunTimeTopk) == 0);
    for (int j = 0; j < topk; ++j) {
      const int other = __shfl_sync(0xffffffffu, dst, j);
      if (j < static_cast<int>(lane) && other == dst) first = false;
    }
    if (first) {
      const int slot = atomicAdd(send_counter + dst, 1);
      uint8_t* remote = recv_buf + (static_cast<int64_t>(me) * tokens + slot) * msg_bytes;
      ptx::tma_store_fence();
      ptx::tma_store_1d(remote, buf, static_cast<uint32_t>(msg_bytes));
    }
    ptx::tma_store_commit();
    __syncwarp();
  }
  ptx::tma_store_wait<0>();
  comm::grid_sync(&ws->grid_sync_count[1], sm, num_sms, thread);
  if (until == 1) stamp = clock64() - t0, gstamp = global_ns() - g0;

  if (sm == 0) {
    if (static_cast<int>(thread) < ranks) {
      const int count = ptx::ld_acquire_gpu(send_counter + thread);
      ptx::st_relaxed_sys(map(recv_count + me, static_cast<int>(thread)), count + 1);
    }
    comm::nvlink_signal_and_wait(ws, map, ranks, thread);
  }
  comm::grid_sync(&ws->grid_sync_count[0], sm, num_sms, thread);
  if (until == 2) stamp = clock64() - t0, gstamp = global_ns() - g0;

  int total = 0, before[64];
  for (int s = 0; s < receive_ranks; ++s) {
    before[s] = total;
    total += ptx::ld_acquire_sys(recv_count + s) - 1;
  }
  k = 0;
  for (int m = static_cast<int>(sm * warps + warp); m < total; m += static_cast<int>(num_sms * warps), ++k) {
    int s = 0;
    while (s + 1 < receive_ranks && before[s + 1] <= m) ++s;
    const int slot = m - before[s];
    uint8_t* buf = bufs + (k & 1) * msg_bytes;
    if (lane == 0) {
      ptx::tma_store_wait<1>();
      ptx::tma_load_1d(buf, recv_buf + (static_cast<int64_t>(s) * tokens + slot) * msg_bytes, mbar,
                       static_cast<uint32_t>(msg_bytes));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(msg_bytes));
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      ptx::tma_store_1d(recv_x + static_cast<int64_t>(m) * msg_bytes, buf, static_cast<uint32_t>(msg_bytes));
      ptx::tma_store_commit();
    }
    __syncwarp();
  }
  if (lane == 0) ptx::tma_store_wait<0>();
  if (sm == 0 && thread == 0) ptx::st_na(recv_total, total);
  __syncthreads();
  if (until == 3) stamp = clock64() - t0, gstamp = global_ns() - g0;
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(stamp);
  if (thread == 0) a.cycles[gridDim.x + 1 + blockIdx.x] = gstamp;
}

}  // namespace

template <int kRunTime>
static int launch_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(dispatch_phases_probe<kRunTime>, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes),
                                   nullptr, args);
}

int launch_dispatch_phases_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  const int run_time = (args.inflight & 8) ? 15 : (args.inflight >> 4) & 15;
  switch (run_time) {
    case 0: return launch_probe<0>(ctas, threads, smem_bytes, args);
    case kRunTimeRanks: return launch_probe<kRunTimeRanks>(ctas, threads, smem_bytes, args);
    case kRunTimeTopk: return launch_probe<kRunTimeTopk>(ctas, threads, smem_bytes, args);
    case kRunTimeExperts: return launch_probe<kRunTimeExperts>(ctas, threads, smem_bytes, args);
    case kRunTimeReceive: return launch_probe<kRunTimeReceive>(ctas, threads, smem_bytes, args);
    case 15: return launch_probe<15>(ctas, threads, smem_bytes, args);
    default: return cudaErrorInvalidValue;  // one part at a time, or all four
  }
}
