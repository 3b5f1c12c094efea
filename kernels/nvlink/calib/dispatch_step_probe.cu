// Mode 29 (issue 19, sixteenth pass): mode 12's round (dispatch's send step: two buffers, one
// store left in flight, lane 0 loads, the whole warp waits on the mbarrier) with the per-token
// work intranode_dispatch does between its bulk load and its bulk store, each part by a bit of
// `stride`: 1 the routing (lanes < top-k `ldg` the token's experts, a rank by a run-time
// division, top-k shuffles to keep each rank once), 2 the slot (an atomicAdd on one counter
// word every warp of every CTA shares), 4 the header (lane 0 writes it to the shared buffer
// before the load); `stride` >> 4 = n: n iterations of row code.loop_iter's loop there instead
// (latency-bound arithmetic, no memory access). The load fills the buffer after the 16 B header and the store sends both,
// as dispatch's. Whether the round stays near mode 12's while this latency-bound work is added
// (the TMA engine busy under it) or grows by it tells how the GPU overlaps the two.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/calib/index_code.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

constexpr uint32_t kHeaderBytes = 16;

__global__ void dispatch_step_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32, warps = blockDim.x / 32;
  const uint32_t msg_bytes = a.bytes + kHeaderBytes;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * msg_bytes;
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  const long long t0 = clock64();
  // Loads walk the window's first half as shim_probe.cu's; messages go to the second in slot
  // order (the host sizes it for every warp's `count`).
  const uint64_t half = a.window_bytes / 2, step = static_cast<uint64_t>(gridDim.x) * warps * a.bytes;
  const uint32_t id = blockIdx.x * warps + warp, ids = gridDim.x * warps;
  uint64_t off = static_cast<uint64_t>(id) * a.bytes;
  const bool routing = a.stride & 1, slot = a.stride & 2, header = a.stride & 4;
  const int code_n = static_cast<int>(a.stride >> 4);
  int* counter = a.word;
  const int* topk_idx = a.word + kPullProbeTopkInts;
  const int experts_per_rank = a.experts / a.ranks;
  uint32_t phase = 0;
  for (int r = 0; r < a.per_thread; ++r) {
    uint8_t* buf = bufs + (r & 1) * msg_bytes;
    const int t = static_cast<int>((static_cast<uint32_t>(r) * ids + id) % kPullProbeTokens);
    ptx::tma_store_wait<1>();
    __syncwarp();
    if (lane == 0) {
      if (header) {
        reinterpret_cast<int*>(buf)[0] = t;
        reinterpret_cast<int*>(buf)[1] = 0;
      }
      ptx::tma_load_1d(buf + kHeaderBytes, a.buf + off, mbar, a.bytes);
      ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
    }
    ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    int dst = lane == 0 ? 0 : -1;
    if (routing) {
      dst = -1;
      if (static_cast<int>(lane) < a.topk) {
        const int e = ptx::ldg(topk_idx + t * 8 + static_cast<int>(lane));
        dst = e >= 0 ? e / experts_per_rank : -1;
      }
    }
    if (code_n > 0 && index_code(code_n, a.bytes, static_cast<uint64_t>(r)) == 1) dst = -1;
    bool first = dst >= 0;
    if (routing) {
      for (int j = 0; j < a.topk; ++j) {
        const int other = __shfl_sync(0xffffffffu, dst, j);
        if (j < static_cast<int>(lane) && other == dst) first = false;
      }
    }
    if (first) {
      // The message's slot, as dispatch's: taken by the atomic, or else the warp's round.
      const int k = slot ? atomicAdd(counter + dst, 1) : r * static_cast<int>(ids) + static_cast<int>(id);
      ptx::tma_store_fence();
      ptx::tma_store_1d(a.buf + half + static_cast<uint64_t>(k) * msg_bytes, buf, msg_bytes);
    }
    ptx::tma_store_commit();
    __syncwarp();
    off += step;
    if (off + step > half) off = 0;
  }
  ptx::tma_store_wait<0>();
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_dispatch_step_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(dispatch_step_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
