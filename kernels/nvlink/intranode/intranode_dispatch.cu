#include "kernels/nvlink/intranode/intranode_dispatch.cuh"

#include "symsim_launch.cuh"

namespace {

// The rank count is a template parameter, as DeepEP's kNumRanks: the loops over ranks unroll
// and `before` lives in registers (with a run-time count it sat in a 256 B local array).
template <int kNumRanks>
__global__ void intranode_dispatch(IntranodeDispatchArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = a.window.rank;
  const int msg_bytes = static_cast<int>(sizeof(DispatchHeader)) + a.hidden_bytes;
  const int experts_per_rank = a.num_experts / kNumRanks;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kDispatchMbarBytes + static_cast<size_t>(warp) * 2 * msg_bytes;
  auto map = [&](int* p, int r) { return a.window.get_sym_ptr(p, r); };

  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncwarp();
  uint32_t phase = 0;
  int k = 0;
  for (int t = static_cast<int>(sm * warps + warp); t < a.num_tokens; t += static_cast<int>(num_sms * warps), ++k) {
    uint8_t* buf = bufs + (k & 1) * msg_bytes;
    // Stores from two tokens ago read this buffer; the last token's may still be in flight.
    ptx::tma_store_wait<1>();
    __syncwarp();
    if (lane == 0) {
      auto* h = reinterpret_cast<DispatchHeader*>(buf);
      h->token = t;
      h->src_rank = me;
      ptx::tma_load_1d(buf + sizeof(DispatchHeader), a.x + static_cast<int64_t>(t) * a.hidden_bytes, mbar,
                       static_cast<uint32_t>(a.hidden_bytes));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(a.hidden_bytes));
    }
    ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    // Destination ranks of this token, each once.
    int dst = -1;
    if (static_cast<int>(lane) < a.topk) {
      const int e = ptx::ldg(a.topk_idx + static_cast<int64_t>(t) * a.topk + lane);
      dst = e >= 0 ? e / experts_per_rank : -1;
    }
    bool first = dst >= 0;
    for (int j = 0; j < a.topk; ++j) {
      const int other = __shfl_sync(0xffffffffu, dst, j);
      if (j < static_cast<int>(lane) && other == dst) first = false;
    }
    if (first) {
      const int slot = atomicAdd(a.send_counter + dst, 1);
      uint8_t* remote = a.window.get_sym_ptr(a.recv_buf + (static_cast<int64_t>(me) * a.max_tokens + slot) * msg_bytes, dst);
      ptx::tma_store_fence();
      ptx::tma_store_1d(remote, buf, static_cast<uint32_t>(msg_bytes));
    }
    ptx::tma_store_commit();
    __syncwarp();
  }
  ptx::tma_store_wait<0>();

  // Counts: every SM's slots are taken once all SMs are here. SM 0's thread r writes rank r's
  // count and signals rank r (its release orders the count), then the grid waits for SM 0:
  // nvlink_barrier's own opening grid sync would only repeat the one above.
  comm::grid_sync(&a.ws->grid_sync_count[1], sm, num_sms, thread);
  if (sm == 0) {
    if (static_cast<int>(thread) < kNumRanks) {
      const int count = ptx::ld_acquire_gpu(a.send_counter + thread);
      ptx::st_relaxed_sys(map(a.recv_count + me, static_cast<int>(thread)), count + 1);
    }
    comm::nvlink_signal_and_wait(a.ws, map, kNumRanks, thread);
  }
  comm::grid_sync(&a.ws->grid_sync_count[0], sm, num_sms, thread);

  // Receive side: pack [source][slot] messages into recv_x; warps take messages in turn and
  // move each with a TMA load into shared memory and a TMA store out (the copy epilogue).
  int total = 0, before[kNumRanks];
  for (int s = 0; s < kNumRanks; ++s) {
    before[s] = total;
    total += ptx::ld_acquire_sys(a.recv_count + s) - 1;
  }
  k = 0;
  for (int m = static_cast<int>(sm * warps + warp); m < total; m += static_cast<int>(num_sms * warps), ++k) {
    // Message m's source: the last rank whose messages start at or before m (`before` rises).
    int s = 0, first = 0;
    for (int r = 1; r < kNumRanks; ++r)
      if (before[r] <= m) s = r, first = before[r];
    const int slot = m - first;
    uint8_t* buf = bufs + (k & 1) * msg_bytes;
    if (lane == 0) {
      ptx::tma_store_wait<1>();
      ptx::tma_load_1d(buf, a.recv_buf + (static_cast<int64_t>(s) * a.max_tokens + slot) * msg_bytes, mbar,
                       static_cast<uint32_t>(msg_bytes));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(msg_bytes));
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      ptx::tma_store_1d(a.recv_x + static_cast<int64_t>(m) * msg_bytes, buf, static_cast<uint32_t>(msg_bytes));
      ptx::tma_store_commit();
    }
    __syncwarp();
  }
  if (lane == 0) ptx::tma_store_wait<0>();
  if (sm == 0 && thread == 0) ptx::st_na(a.recv_total, total);
}

}  // namespace

template <int kNumRanks>
static int launch_for_ranks(int sms, int threads, const IntranodeDispatchArgs& args) {
  const int msg_bytes = static_cast<int>(sizeof(DispatchHeader)) + args.hidden_bytes;
  return SYMSIM_LAUNCH_COOPERATIVE(intranode_dispatch<kNumRanks>, dim3(sms), dim3(threads),
                                   static_cast<size_t>(dispatch_smem_bytes(threads / 32, msg_bytes)), nullptr, args);
}

int launch_intranode_dispatch(int sms, int threads, const IntranodeDispatchArgs& args) {
  switch (args.window.n_ranks) {
    case 1: return launch_for_ranks<1>(sms, threads, args);
    case 2: return launch_for_ranks<2>(sms, threads, args);
    case 4: return launch_for_ranks<4>(sms, threads, args);
    case 8: return launch_for_ranks<8>(sms, threads, args);
    default: return cudaErrorInvalidValue;  // the host drivers check the rank count first
  }
}
