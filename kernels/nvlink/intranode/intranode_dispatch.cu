#include "kernels/nvlink/intranode/intranode_dispatch.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void intranode_dispatch(IntranodeDispatchArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = a.window.rank, ranks = a.window.n_ranks;
  const int msg_bytes = static_cast<int>(sizeof(DispatchHeader)) + a.hidden_bytes;
  const int experts_per_rank = a.num_experts / ranks;
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
    if (static_cast<int>(thread) < ranks) {
      const int count = ptx::ld_acquire_gpu(a.send_counter + thread);
      ptx::st_relaxed_sys(map(a.recv_count + me, static_cast<int>(thread)), count + 1);
    }
    comm::nvlink_signal_and_wait(a.ws, map, ranks, thread);
  }
  comm::grid_sync(&a.ws->grid_sync_count[0], sm, num_sms, thread);

  // Receive side: pack [source][slot] messages into recv_x; warps take messages in turn and
  // move each with a TMA load into shared memory and a TMA store out (the copy epilogue).
  int total = 0, before[64];
  for (int s = 0; s < ranks; ++s) {
    before[s] = total;
    total += ptx::ld_acquire_sys(a.recv_count + s) - 1;
  }
  k = 0;
  for (int m = static_cast<int>(sm * warps + warp); m < total; m += static_cast<int>(num_sms * warps), ++k) {
    int s = 0;
    while (s + 1 < ranks && before[s + 1] <= m) ++s;
    const int slot = m - before[s];
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

int launch_intranode_dispatch(int sms, int threads, const IntranodeDispatchArgs& args) {
  const int msg_bytes = static_cast<int>(sizeof(DispatchHeader)) + args.hidden_bytes;
  return SYMSIM_LAUNCH_COOPERATIVE(intranode_dispatch, dim3(sms), dim3(threads),
                                   static_cast<size_t>(dispatch_smem_bytes(threads / 32, msg_bytes)), nullptr, args);
}
