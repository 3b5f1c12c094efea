// The seventh pass's probes (issue 19): mode 12's loads alone (19) and its stores alone (20),
// and pull_dispatch's whole step per token (21), with the kernels' own ptx:: calls in the
// kernels' launch shape, timed as shim_probe.cu times its modes. A kernel of its own so that
// shim_probe's modes, whose rows the presets are fitted from, keep the code they were
// measured and simulated with.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "sym_buffer.cuh"
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

// kPull: mode 21's variants (`inflight` + 8, + 16, + 32, + 64), instantiated apart so that its other rows
// keep the code they were measured and simulated with.
template <int kPull>
__global__ void shim_parts_probe(CalibProbeArgs a, layout::SymBuffer<> sym) {
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
    // the routing load (1), the atomic (2) and the source words (4) the step keeps; + 8: the
    // routing and the row reached through `sym.map` with a source known only at run time, as
    // pull_dispatch without its kNumRanks (a register-indexed read of the parameters' offsets);
    // + 16: the pair's token and source and the experts per rank by run-time divisions, top-k a
    // run-time bound, as pull_dispatch's pair loop; + 32: the row stored to its slot in `out`
    // (slot order in memory never written, as pull_dispatch's recv_x), the slot the atomic's when
    // bit 2 is set; + 64: two shared buffers, the load waiting only for the store before last
    // (wait_group 1), so the last store's writes are not waited for.
    PartsWalk w = parts_walk(a);
    int* counter = a.word;
    const int* topk = a.word + kPullProbeTopkInts;
    int* recv_src = a.word + kPullProbeSrcInts;
    const uint32_t id = blockIdx.x * (blockDim.x / 32) + warp, ids = gridDim.x * (blockDim.x / 32);
    for (int r = 0; r < a.per_thread; ++r, w.next()) {
      constexpr bool kMapped = kPull & 8, kRunTime = kPull & 16, kSlotOrder = kPull & 32, kTwoBufs = kPull & 64;
      uint8_t* buf = bufs;
      int t = static_cast<int>((static_cast<uint32_t>(r) * ids + id) % kPullProbeTokens);
      int src = 0, topk_n = 8, per_rank = 64;
      if constexpr (kRunTime) {
        const int pair = r * static_cast<int>(ids) + static_cast<int>(id), tokens = kPullProbeTokens * a.ranks;
        src = pair / tokens, t = pair % tokens, topk_n = a.topk, per_rank = a.experts / a.ranks;
      } else if constexpr (kMapped) {
        src = static_cast<int>((static_cast<uint32_t>(r) * ids + id) >> 24);  // 0, not known at compile time
      }
      const int* route = topk + t * 8 + lane;
      const uint8_t* row = w.src + w.off;
      if constexpr (kMapped) {
        route = sym.map(route, static_cast<uint32_t>(src));
        row = sym.map(row, static_cast<uint32_t>(src));
      }
      int e = -1;
      if (static_cast<int>(lane) < topk_n) e = (a.inflight & 1) ? ptx::ld_weak(route) : 0;
      if (!__any_sync(0xffffffffu, e >= 0 && e / per_rank == 0)) continue;
      if (lane == 0) {
        const int slot = ((a.inflight & 2) ? atomicAdd(counter, 1) : static_cast<int>(static_cast<uint32_t>(r) * ids + id)) % kPullProbeSlots;
        if constexpr (kTwoBufs) {
          buf = bufs + (r & 1) * a.bytes;
          ptx::tma_store_wait<1>();
        } else {
          ptx::tma_store_wait<0>();
        }
        ptx::tma_load_1d(buf, row, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
        if constexpr (kSlotOrder) {
          ptx::tma_store_1d(a.out + static_cast<uint64_t>(slot) * a.bytes, buf, a.bytes);
        } else {
          ptx::tma_store_1d(w.dst + w.off, buf, a.bytes);
        }
        ptx::tma_store_commit();
        if (a.inflight & 4) {
          ptx::st_na(recv_src + 2 * slot, src);
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
  const layout::SymBuffer<> sym;  // one PE: every offset 0 (only mode 21 + 8 reads them)
  const dim3 grid(ctas), block(threads);
  const auto smem = static_cast<size_t>(smem_bytes);
  switch (args.mode == kProbePullStep ? args.inflight & 120 : 0) {
    case 0: return SYMSIM_LAUNCH(shim_parts_probe<0>, grid, block, smem, nullptr, args, sym);
    case 8: return SYMSIM_LAUNCH(shim_parts_probe<8>, grid, block, smem, nullptr, args, sym);
    case 16: return SYMSIM_LAUNCH(shim_parts_probe<16>, grid, block, smem, nullptr, args, sym);
    case 24: return SYMSIM_LAUNCH(shim_parts_probe<24>, grid, block, smem, nullptr, args, sym);
    // + 32 and + 64 only over main's pull's step (+ 24), the variants the eleventh pass measured
    case 56: return SYMSIM_LAUNCH(shim_parts_probe<56>, grid, block, smem, nullptr, args, sym);
    case 88: return SYMSIM_LAUNCH(shim_parts_probe<88>, grid, block, smem, nullptr, args, sym);
    case 120: return SYMSIM_LAUNCH(shim_parts_probe<120>, grid, block, smem, nullptr, args, sym);
    default: return cudaErrorInvalidValue;
  }
}
