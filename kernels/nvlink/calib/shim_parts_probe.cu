// The seventh pass's probes (issue 19): mode 12's loads alone (19) and its stores alone (20),
// and pull_dispatch's whole step per token (21), with the kernels' own ptx:: calls in the
// kernels' launch shape, timed as shim_probe.cu times its modes. A kernel of its own so that
// shim_probe's modes, whose rows the presets are fitted from, keep the code they were
// measured and simulated with.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

// As shim_probe.cu's walk: loads walk the window's first half, stores the second; every warp
// of every CTA on rows of its own.
struct PartsWalk {
  const uint8_t* src;
  uint8_t* dst;
  uint64_t half, step, off;
  __device__ void next() {
    off += step;
    if (off + step > half) off = 0;
  }
};

__device__ PartsWalk parts_walk(const CalibProbeArgs& a) {
  const uint64_t warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const uint64_t half = a.window_bytes / 2, step = static_cast<uint64_t>(gridDim.x) * warps * a.bytes;
  return {a.buf, a.buf + half, half, step, (static_cast<uint64_t>(blockIdx.x) * warps + warp) * a.bytes};
}

__global__ void shim_parts_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * a.bytes;
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  const long long t0 = clock64();
  uint32_t phase = 0;
  if (a.mode == kProbeLoadRoundWarp || a.mode == kProbeStoreRoundWarp) {
    // Mode 12's loads alone (19) or its stores alone (20), in its structure: what each half
    // costs with `warps` warps on one SM, against the two mixed (mode 12).
    PartsWalk w = parts_walk(a);
    const bool loads = a.mode == kProbeLoadRoundWarp;
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      uint8_t* buf = bufs + (r & 1) * a.bytes;
      ptx::tma_store_wait<1>();
      __syncwarp();
      if (loads) {
        if (lane == 0) {
          ptx::tma_load_1d(buf, w.src + w.off, mbar, a.bytes);
          ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
        }
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      } else if (lane == 0) {
        ptx::tma_store_fence();
        ptx::tma_store_1d(w.dst + w.off, buf, a.bytes);
      }
      ptx::tma_store_commit();
      __syncwarp();
    }
    ptx::tma_store_wait<0>();
  } else if (a.mode == kProbePullStep) {
    // pull_dispatch's step per token at one PE: lanes < 8 load the token's routing, the warp
    // votes, lane 0 takes a slot with an atomic, waits for its last store, copies the row
    // through shared memory and writes the slot's two source words. `inflight` says which of
    // the routing load (1), the atomic (2) and the source words (4) the step keeps.
    PartsWalk w = parts_walk(a);
    int* counter = a.word;
    const int* topk = a.word + kPullProbeTopkInts;
    int* recv_src = a.word + kPullProbeSrcInts;
    const uint32_t id = blockIdx.x * (blockDim.x / 32) + warp, ids = gridDim.x * (blockDim.x / 32);
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      const int t = static_cast<int>((static_cast<uint32_t>(r) * ids + id) % kPullProbeTokens);
      int e = -1;
      if (lane < 8) e = (a.inflight & 1) ? ptx::ld_weak(topk + t * 8 + lane) : 0;
      if (!__any_sync(0xffffffffu, e >= 0 && e / 64 == 0)) continue;
      if (lane == 0) {
        const int slot = ((a.inflight & 2) ? atomicAdd(counter, 1) : static_cast<int>(static_cast<uint32_t>(r) * ids + id)) % kPullProbeSlots;
        ptx::tma_store_wait<0>();
        ptx::tma_load_1d(bufs, w.src + w.off, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
        ptx::tma_store_1d(w.dst + w.off, bufs, a.bytes);
        ptx::tma_store_commit();
        if (a.inflight & 4) {
          ptx::st_na(recv_src + 2 * slot, 0);
          ptx::st_na(recv_src + 2 * slot + 1, t);
        }
      }
      __syncwarp();
    }
    if (lane == 0) ptx::tma_store_wait<0>();
  }
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_shim_parts_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(shim_parts_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
