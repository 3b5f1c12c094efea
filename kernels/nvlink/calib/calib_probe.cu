#include "kernels/nvlink/calib/calib_probe.cuh"

#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

// Lane 0 of every warp streams its copies (copy c of warp w is copy c * warps + w of the
// window), keeping K in flight: a load waits for the mbarrier of the copy issued K before, a
// store waits until at most K - 1 of its groups are in flight.
template <int K>
__device__ void tma_stream(const CalibProbeArgs& a, uint8_t* smem) {
  // The store loop's code from one bulk store to the next in calib_probe's SASS (K = 1 and 8
  // unrolled by 4: four stores a pass, their remainder loops left out): stall cycles a store, and the
  // cycles from each constant / special-register load to the first wait for it (K = 2 and 4: the
  // CTA id's S2UR rebuilt each store; tools/sass-store/store_loop_cycles.txt). No fence.
  if (K == 1) ptx::store_loop_code(116.25f, {24, 9, 5}, {}, 4);
  if (K == 8) ptx::store_loop_code(118, {22, 10, 6, 9}, {}, 4);
  if (K == 2 || K == 4) ptx::store_loop_code(131, {7}, {});
  const int warp = threadIdx.x / 32, warps = blockDim.x / 32;
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp * 8;
  uint8_t* my = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * a.bufs * a.bytes;
  const uint64_t step = static_cast<uint64_t>(warps) * a.bytes;
  uint64_t off = static_cast<uint64_t>(warp) * a.bytes;
  uint32_t phases = 0;
  int s = 0, b = 0;
  for (int c = 0; c < a.per_thread; ++c) {
    uint8_t* sbuf = my + static_cast<size_t>(b) * a.bytes;
    if (a.mode == kProbeTmaStore) {
      ptx::tma_store_1d(a.buf + off, sbuf, a.bytes);
      ptx::tma_store_commit();
      ptx::tma_store_wait<K - 1>();
    } else {
      if (c >= K) {
        ptx::mbarrier_wait(&mbar[s], (phases >> s) & 1);
        phases ^= 1u << s;
      }
      ptx::mbarrier_arrive_and_set_tx(&mbar[s], a.bytes);
      ptx::tma_load_1d(sbuf, a.buf + off, &mbar[s], a.bytes);
    }
    off += step;  // the window is a multiple of step
    if (off >= a.window_bytes) off -= a.window_bytes;
    if (++s == K) s = 0;
    if (++b == a.bufs) b = 0;
  }
  ptx::store_loop_code_end();
  if (a.mode == kProbeTmaStore) {
    ptx::tma_store_wait<0>();
  } else {
    if (a.per_thread < K) s = 0;
    for (int c = 0; c < K && c < a.per_thread; ++c) {
      ptx::mbarrier_wait(&mbar[s], (phases >> s) & 1);
      phases ^= 1u << s;
      if (++s == K) s = 0;
    }
  }
}

__global__ void calib_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const bool tma = a.mode == kProbeTmaLoad || a.mode == kProbeTmaStore || a.mode == kProbeTmaMbar;
  if (tma && threadIdx.x % 32 == 0)
    for (int s = 0; s < 8; ++s) ptx::mbarrier_init_with_fence(reinterpret_cast<uint64_t*>(smem) + (threadIdx.x / 32) * 8 + s, 1);
  __syncthreads();
  const long long t0 = clock64();
  if (a.mode == kProbeTmaMbar) {
    // Rows tma_mbar.load_l2.*.kN.round_ns: one mbarrier armed for N copies per round.
    if (threadIdx.x == 0) {
      uint64_t* mbar = reinterpret_cast<uint64_t*>(smem);
      uint8_t* bufs = smem + kCalibProbeMbarBytes;
      uint32_t phase = 0;
      uint64_t off = 0;
      for (int r = 0; r < a.per_thread; ++r) {
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes * static_cast<uint32_t>(a.inflight));
        for (int c = 0; c < a.inflight; ++c) {
          ptx::tma_load_1d(bufs + static_cast<size_t>(c) * a.bytes, a.buf + off, mbar, a.bytes);
          off += a.bytes;
          if (off + a.bytes > a.window_bytes) off = 0;
        }
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      }
    }
  } else if (tma) {
    if (threadIdx.x % 32 == 0) {
      switch (a.inflight) {
        case 1: tma_stream<1>(a, smem); break;
        case 2: tma_stream<2>(a, smem); break;
        case 4: tma_stream<4>(a, smem); break;
        default: tma_stream<8>(a, smem); break;
      }
    }
  } else if (a.mode == kProbeLoadChain || a.mode == kProbeAtomicChain) {
    if (threadIdx.x == 0) {
      // Each address depends on the value loaded before it (compared, so the GPU waits).
      uint64_t off = 0;
      int sink = 0;
      for (int i = 0; i < a.per_thread; ++i) {
        int* p = reinterpret_cast<int*>(a.buf + off);
        const int v = a.mode == kProbeLoadChain ? ptx::ld_weak(p) : atomicAdd(p, 1);
        sink += v;
        // The simulator cannot see that the next address depends on v: the one-lane warp sync
        // is where it takes the load as used (a few cycles on the GPU).
        __syncwarp(1u);
        off += a.stride + (v == 0x5a5a5a5a ? 16 : 0);
        if (off >= a.window_bytes) off -= a.window_bytes;
      }
      if (sink == 0x12345678) a.cycles[gridDim.x] = 1;
    }
  } else if (a.mode == kProbeRedOneAddr) {
    if (threadIdx.x == 0)
      for (int i = 0; i < a.per_thread; ++i) ptx::red_add(a.word, 1);
  } else if (a.mode == kProbeStoreSm) {
    int4* out = reinterpret_cast<int4*>(a.buf);
    const uint64_t n = a.window_bytes / 16;
    const int4 v = make_int4(1, 2, 3, static_cast<int>(threadIdx.x));
    for (uint64_t i = threadIdx.x; i < n; i += blockDim.x) ptx::st_na(out + i, v);
  } else if (a.mode == kProbeAtomicSm) {
    // Each thread on lines of its own (128 B apart), one returning atomic in flight.
    int* mine = reinterpret_cast<int*>(a.buf) + threadIdx.x * 32;
    int sink = 0;
    for (int i = 0; i < a.per_thread; ++i) sink += atomicAdd(mine + (sink == 0x5a5a5a5a ? 1 : 0), 1);
    if (sink == 0x12345678) a.cycles[gridDim.x] = 1;
  } else if (a.mode == kProbeShflChain || a.mode == kProbeBallotChain) {
    // Each collective on the last one's result (rows code.shfl_dep.wN_ns, code.ballot_dep.wN_ns).
    const uint32_t lane = threadIdx.x % 32;
    uint32_t x = threadIdx.x;
    for (int i = 0; i < a.per_thread; ++i)
      x = a.mode == kProbeShflChain ? __shfl_sync(0xffffffffu, x, (lane + 1) & 31) : x + __ballot_sync(0xffffffffu, x & 1);
    if (x == 0x12345678u) a.cycles[gridDim.x] = 1;
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_calib_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(calib_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
