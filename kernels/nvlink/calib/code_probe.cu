// Row code.loop_iter.wN_ns as a probe both the simulator and the GPU run: every lane of `warps`
// warps runs a lane-strided loop whose iteration is 64-bit index arithmetic and nothing else.
// Compiled for the simulator with -fsanitize-coverage=trace-pc like every kernel (calib_probe.cu
// is not: its rows time one primitive per iteration), so it checks the per-basic-block charge
// (models/nvidia/code_cost.h) against the row it is fitted from.
#include "calib_probe.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void code_probe(CalibProbeArgs a) {
  const uint32_t lane = threadIdx.x % 32;
  const uint64_t row = a.stride, t = a.bytes;
  uint64_t acc = 0;
  __syncthreads();
  const long long t0 = clock64();
  const int n = a.per_thread * 32;
#ifdef __CUDA_ARCH__
#pragma unroll 1  // as the row's loop (hw/calib/bench_code.cu): one iteration per pass
#endif
  for (int i = static_cast<int>(lane); i < n; i += 32) {
    const uint64_t off = (t * 8 + static_cast<uint64_t>(i & 7)) * row + static_cast<uint64_t>(i);
#ifdef __CUDA_ARCH__
    asm volatile("" ::"l"(off));
#else
    asm volatile("" ::"r"(off));  // the address is consumed: no vectorising, no closed form
#endif
    acc += off;
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
  if (acc == 0x9e3779b97f4a7c15ull) a.cycles[gridDim.x] = 1;
}

}  // namespace

int launch_code_probe(int threads, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(code_probe, dim3(1), dim3(threads), 0, nullptr, args);
}
