// Mode 30 + 8 + 64 / 128 / 192 (issue 19, forty-second pass (s36-flag)): flag_probe.cu's relaxed.gpu ping-pong
// with the poller's atom.add 0 on a word 4 / 256 / 4096 B after its flag, not on the flag. Row
// flag.relaxed_gpu.own_atomic.one_way_ns reads two levels by its window's address; whether the high one needs the
// atomic on the polled word itself, its 32 B sector, its 128 B line or its 4 KiB is the question this answers.
// Its own kernel, so that flag_probe.cu's code (the calibration rows' simulated code count) stays as it is.
#include "hw/calib/flag_ping_pong.cuh"
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

template <int kOffsetBytes>
struct RelaxedGpuAtomicBeside {
  static __device__ void store(int* p, int v) { ptx::st_relaxed_gpu(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_relaxed_gpu(p); }
  static __device__ void own_atomic(int* p) {
    ptx::atomic_add(reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(p) + kOffsetBytes), 0u);
  }
};

__global__ void flag_beside_probe(CalibProbeArgs a) {
  const bool initiator = blockIdx.x == 0;
  int* flags = reinterpret_cast<int*>(a.buf);
  int* mine = initiator ? flags : flags + 32;
  int* theirs = initiator ? flags + 32 : flags;
  __syncthreads();
  const long long t0 = clock64();
  if (threadIdx.x == 0) {
    switch ((a.inflight >> kFlagProbeAtomicOffsetShift) & 3) {
      case 1: flag_ping_pong<RelaxedGpuAtomicBeside<4>, true>(mine, theirs, a.per_thread, initiator); break;
      case 2: flag_ping_pong<RelaxedGpuAtomicBeside<256>, true>(mine, theirs, a.per_thread, initiator); break;
      default: flag_ping_pong<RelaxedGpuAtomicBeside<4096>, true>(mine, theirs, a.per_thread, initiator); break;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_flag_beside_probe(const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(flag_beside_probe, dim3(2), dim3(32), 0, nullptr, args);
}
