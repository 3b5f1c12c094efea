// Modes 27 and 28 (issue 19, fifteenth pass). Mode 27: mode 9's rounds (one thread arms an mbarrier for
// `inflight` bulk loads, issues them, waits) with `stride` iterations of row code.loop_iter's
// loop (code_probe.cu) before each copy, compiled as the kernels are (their code counted,
// models/nvidia/code_cost.h); `stride` = kTmaCodeAfterWait + n: n iterations once per round,
// after the wait, where no copy is being issued (the code's own cost). The round time against n
// says how much of a kernel's own code between bulk-copy issues the GPU runs inside the issue's
// time (tma_probe's round: address arithmetic after the arm and between its loads). Mode 28, the
// same code after a waited bulk store: tma_store_code_probe below.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/calib/index_code.cuh"

#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

__global__ void tma_code_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  if (threadIdx.x == 0) ptx::mbarrier_init_with_fence(reinterpret_cast<uint64_t*>(smem), 1);
  __syncthreads();
  const long long t0 = clock64();
  uint64_t sink = 0;
  if (threadIdx.x == 0) {
    uint64_t* mbar = reinterpret_cast<uint64_t*>(smem);
    uint8_t* bufs = smem + kCalibProbeMbarBytes;
    const bool after_wait = a.stride >= kTmaCodeAfterWait;
    const int n = static_cast<int>(after_wait ? a.stride - kTmaCodeAfterWait : a.stride);
    const int n_copy = after_wait ? 0 : n;
    uint32_t phase = 0;
    uint64_t off = 0;
    for (int r = 0; r < a.per_thread; ++r) {
      ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes * static_cast<uint32_t>(a.inflight));
      for (int c = 0; c < a.inflight; ++c) {
        const uint64_t code = index_code(n_copy, a.bytes, static_cast<uint64_t>(r));
        sink += code;
        ptx::tma_load_1d(bufs + static_cast<size_t>(c) * a.bytes, a.buf + off + (code == 1 ? 16 : 0), mbar, a.bytes);
        off += a.bytes;
        if (off + a.bytes > a.window_bytes) off = 0;
      }
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      if (after_wait) off += index_code(n, a.bytes, static_cast<uint64_t>(r)) == 1 ? 16 : 0;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
  if (sink == 0x9e3779b97f4a7c15ull) a.cycles[gridDim.x] = 1;
}

// Mode 28: per round one bulk store of `bytes`, commit, wait_group 0, then `stride` iterations of
// the same code (the next store's address takes its sum). Flat in n while the GPU's wait returns
// before the store's bytes have left the SM and they drain under the code; rising from n = 0 if
// the wait covers them (as the model's does).
__global__ void tma_store_code_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  __syncthreads();
  const long long t0 = clock64();
  if (threadIdx.x == 0) {
    const uint8_t* buf = smem + kCalibProbeMbarBytes;
    const int n = static_cast<int>(a.stride);
    uint64_t off = 0;
    for (int r = 0; r < a.per_thread; ++r) {
      ptx::tma_store_1d(a.buf + off, buf, a.bytes);
      ptx::tma_store_commit();
      ptx::tma_store_wait<0>();
      // The index loop after the wait as its SASS runs it (tools/sass-store/store_loops.py's `inner`
      // figures of this loop: 0x230-0x2e0, 12 instructions and 32 stall cycles an iteration, its
      // entry 3 and 7), not the host build's count of it (rows tma_store_code.*: 17.7 ns an
      // iteration on the GPU, 21.3 by the host count; docs/hw-accuracy.md, thirty-seventh pass (s31-store)).
      ptx::store_loop_inner_code(32, 12, 7, 3, n);
      const uint64_t code = index_code(n, a.bytes, static_cast<uint64_t>(r));
      ptx::store_loop_inner_code_end();
      off += a.bytes + (code == 1 ? 16 : 0);
      if (off + a.bytes > a.window_bytes) off = 0;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_tma_code_probe(int threads, int smem_bytes, const CalibProbeArgs& args) {
  if (args.mode == kProbeTmaStoreCode)
    return SYMSIM_LAUNCH(tma_store_code_probe, dim3(1), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
  return SYMSIM_LAUNCH(tma_code_probe, dim3(1), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}
