// Mode 29 with `stride` >= 1 << 16 (issue 19, sixteenth pass (c)): mode 29's round (dispatch's send
// step: lane 0 loads `bytes` into a two-buffer slot after a 16 B header, the warp waits, then
// the store of `bytes` + 16, one left in flight) with the parts of dispatch's routing step alone,
// by the bits of `stride` >> 16 (kRoute*). A kernel of its own so that mode 29's (its rows'
// code as counted by tools/code-weights/as) stays as it was.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

constexpr uint32_t kHeaderBytes = 16;
// Bit 1 of `stride` >> 16 selects this kernel (nothing else on: the bare round); then the `ldg` of the token's
// experts (lanes < top-k), the rank by a run-time division, the shuffle loop keeping each rank
// once (lane 0 alone sends without it), and one 128 B line a token in the routing table where
// dispatch's packs 4 tokens a line (the SM's L1 can then serve no token's read from another's),
// and the load a plain ld.global, which allocates in L1, where ptx::ldg's does not (L1::no_allocate);
// kRouteStoreLines (issue 19, s21-dev): message k at k x (bytes + 16) rounded up to whole 128 B lines
// (7296 B for 7184), so that no line takes two messages' stores (packed: k x (bytes + 16)). A template
// argument, so that the packed kernel's code (its rows' code weights) stays as it was.
constexpr uint32_t kRouteLdg = 2, kRouteDiv = 4, kRouteShfl = 8, kRouteLinePerToken = 16, kRouteL1 = 32;
constexpr uint32_t kRouteStoreLines = 64, kLineBytes = 128;

template <bool kPadToLines>
__global__ void dispatch_route_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32, warps = blockDim.x / 32;
  const uint32_t msg_bytes = a.bytes + kHeaderBytes;
  const uint32_t msg_pitch = kPadToLines ? (msg_bytes + kLineBytes - 1) / kLineBytes * kLineBytes : msg_bytes;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * msg_bytes;
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  const long long t0 = clock64();
  const uint64_t half = a.window_bytes / 2, step = static_cast<uint64_t>(gridDim.x) * warps * a.bytes;
  const uint32_t id = blockIdx.x * warps + warp, ids = gridDim.x * warps;
  uint64_t off = static_cast<uint64_t>(id) * a.bytes;
  const uint32_t route = a.stride >> 16;
  const bool use_ldg = route & kRouteLdg, use_div = route & kRouteDiv, use_shfl = route & kRouteShfl, use_l1 = route & kRouteL1;
  const int row_ints = route & kRouteLinePerToken ? 32 : 8;  // the table (zeros) has room for 32 a token
  const int* topk_idx = a.word + kPullProbeTopkInts;
  const int experts_per_rank = a.experts / a.ranks;
  uint32_t phase = 0;
  for (int r = 0; r < a.per_thread; ++r) {
    uint8_t* buf = bufs + (r & 1) * msg_bytes;
    const int t = static_cast<int>((static_cast<uint32_t>(r) * ids + id) % kPullProbeTokens);
    ptx::tma_store_wait<1>();
    __syncwarp();
    if (lane == 0) {
      ptx::tma_load_1d(buf + kHeaderBytes, a.buf + off, mbar, a.bytes);
      ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
    }
    ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    int dst = -1;
    if (static_cast<int>(lane) < a.topk) {
      // Without the ldg: an expert known only at run time (0, as r < 2^30), ready at once.
      const int* p = topk_idx + t * row_ints + static_cast<int>(lane);
      const int e = !use_ldg ? r >> 30 : use_l1 ? ptx::ld_weak(p) : ptx::ldg(p);
      dst = e >= 0 ? (use_div ? e / experts_per_rank : e) : -1;
    }
    bool first = dst >= 0 && (use_shfl || lane == 0);
    if (use_shfl) {
      for (int j = 0; j < a.topk; ++j) {
        const int other = __shfl_sync(0xffffffffu, dst, j);
        if (j < static_cast<int>(lane) && other == dst) first = false;
      }
    }
    if (first) {
      const int k = r * static_cast<int>(ids) + static_cast<int>(id);
      ptx::tma_store_fence();
      ptx::tma_store_1d(a.buf + half + static_cast<uint64_t>(k) * msg_pitch, buf, msg_bytes);
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

int launch_dispatch_route_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  if ((args.stride >> 16) & kRouteStoreLines)
    return SYMSIM_LAUNCH(dispatch_route_probe<true>, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
  return SYMSIM_LAUNCH(dispatch_route_probe<false>, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
