#include "kernels/nvlink/intranode/intranode_combine.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void intranode_combine(IntranodeCombineArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = a.window.rank, ranks = a.window.n_ranks, experts_per_rank = a.num_experts / ranks;
  const uint32_t row_bytes = static_cast<uint32_t>(a.hidden_ints * sizeof(int32_t));
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* buf = smem + kCombineMbarBytes + static_cast<size_t>(warp) * row_bytes;
  auto map = [&](int* p, int r) { return a.window.get_sym_ptr(p, r); };

  // Send: every held row back to its origin, into the origin's slot for this rank.
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncwarp();
  uint32_t phase = 0;
  for (int h = static_cast<int>(sm * warps + warp); h < a.held; h += static_cast<int>(num_sms * warps)) {
    if (lane == 0) {
      const int origin = ptx::ldg(a.held_src + 2 * h), t = ptx::ldg(a.held_src + 2 * h + 1);
      ptx::tma_store_wait<0>();  // the last row's store has read the buffer
      ptx::tma_load_1d(buf, a.held_out + static_cast<int64_t>(h) * a.hidden_ints, mbar, row_bytes);
      ptx::mbarrier_arrive_and_set_tx(mbar, row_bytes);
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      int32_t* slot = a.recv + (static_cast<int64_t>(t) * ranks + me) * a.hidden_ints;
      ptx::tma_store_1d(a.window.get_sym_ptr(slot, origin), buf, row_bytes);
      ptx::tma_store_commit();
    }
    __syncwarp();
  }
  if (lane == 0) ptx::tma_store_wait<0>();  // TMA stores are ordered by nothing until waited for
  comm::nvlink_barrier(a.ws, map, ranks, sm, num_sms, thread);

  // Reduce: per token, the rows of its destination ranks (each once).
  for (int t = static_cast<int>(sm * warps + warp); t < a.num_tokens; t += static_cast<int>(num_sms * warps)) {
    int dst = -1;
    if (static_cast<int>(lane) < a.topk) {
      const int e = ptx::ldg(a.topk_idx + static_cast<int64_t>(t) * a.topk + lane);
      dst = e >= 0 ? e / experts_per_rank : -1;
    }
    uint32_t from = 0;  // bit r: rank r holds an expert of this token
    for (int j = 0; j < a.topk; ++j) {
      const int r = __shfl_sync(0xffffffffu, dst, j);
      if (r >= 0) from |= 1u << r;
    }
    // 16 B per lane and load. The SASS (s19b) unrolls the ranks' loop and keeps its loads 4 ahead
    // of their use.
    const ptx::LoadsBeforeUse unrolled(4);
    const int vecs = a.hidden_ints / 4;
    for (int i = static_cast<int>(lane); i < vecs; i += 32) {
      int4 sum = make_int4(0, 0, 0, 0);
      for (int r = 0; r < ranks; ++r) {
        if (!(from & (1u << r))) continue;
        const int4 v = ptx::ld_weak(reinterpret_cast<const int4*>(a.recv + (static_cast<int64_t>(t) * ranks + r) * a.hidden_ints) + i);
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
      ptx::st_na(reinterpret_cast<int4*>(a.out + static_cast<int64_t>(t) * a.hidden_ints) + i, sum);
    }
  }
}

}  // namespace

int launch_intranode_combine(int sms, int threads, const IntranodeCombineArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(intranode_combine, dim3(sms), dim3(threads),
                                   static_cast<size_t>(combine_smem_bytes(threads / 32, args.hidden_ints)), nullptr, args);
}
