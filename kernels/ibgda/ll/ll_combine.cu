#include "kernels/ibgda/ll/ll_combine.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void ll_combine(LLCombineArgs a) {
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = a.window.rank, ranks = a.window.n_ranks, local_experts = a.experts / ranks;
  const uint32_t row_bytes = static_cast<uint32_t>(a.hidden_ints * sizeof(int32_t));
  const int vecs = a.hidden_ints / 4;
  auto recv_row = [&](int t, int k) { return a.recv + (static_cast<int64_t>(t) * a.topk + k) * a.hidden_ints; };

  // ---- send ----
  for (int p = static_cast<int>(sm * warps + warp); p < local_experts * ranks; p += static_cast<int>(num_sms * warps)) {
    const int le = p / ranks, origin = p % ranks;
    const int begin = ptx::ldg(a.pair_begin + p), end = ptx::ldg(a.pair_begin + p + 1);
    for (int h = begin; h < end; ++h) {
      const int t = ptx::ldg(a.held + 4 * h + 2), k = ptx::ldg(a.held + 4 * h + 3);
      const int32_t* row = a.held_out + static_cast<int64_t>(h) * a.hidden_ints;
      if (origin == me) {
        for (int i = static_cast<int>(lane); i < vecs; i += 32)
          ptx::st_na(reinterpret_cast<int4*>(recv_row(t, k)) + i, ptx::ld_weak(reinterpret_cast<const int4*>(row) + i));
      } else {
        ibgda::put_nbi_warp(a.rdma, recv_row(t, k), row, row_bytes, origin, le, lane, h - begin);
      }
    }
    __syncwarp();
    if (lane == 0) {
      int* flag = a.recv_flag + me * local_experts + le;
      if (origin == me) {
        ptx::st_release_sys(flag, 1);
      } else {
        ibgda::amo_nonfetch_add(a.rdma, flag, 1, origin, le);  // same QP as the rows: after them
      }
    }
  }

  // ---- receive ----
  for (int e = static_cast<int>(thread); e < a.experts; e += static_cast<int>(blockDim.x))
    while (ptx::ld_acquire_sys(a.recv_flag + e) == 0) {
    }
  __syncthreads();
  for (int t = static_cast<int>(sm * warps + warp); t < a.tokens; t += static_cast<int>(num_sms * warps)) {
    const bool chosen = static_cast<int>(lane) < a.topk && ptx::ldg(a.topk_idx + static_cast<int64_t>(t) * a.topk + lane) >= 0;
    const uint32_t slots = __ballot_sync(0xffffffffu, chosen);  // bit k: top-k slot k holds an expert
    // 16 B per lane and load. The SASS (s24-window) unrolls the top-k loop by 4 and issues a
    // group's 4 loads before it adds the first.
    const ptx::LoadsBeforeUse unrolled(4);
    for (int i = static_cast<int>(lane); i < vecs; i += 32) {
      int4 sum = make_int4(0, 0, 0, 0);
      for (int k = 0; k < a.topk; ++k) {
        if (!(slots & (1u << k))) continue;
        const int4 v = ptx::ld_weak(reinterpret_cast<const int4*>(recv_row(t, k)) + i);
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
      ptx::st_na(reinterpret_cast<int4*>(a.out + static_cast<int64_t>(t) * a.hidden_ints) + i, sum);
    }
  }
}

}  // namespace

int launch_ll_combine(int sms, int threads, const LLCombineArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(ll_combine, dim3(sms), dim3(threads), 0, nullptr, args);
}
