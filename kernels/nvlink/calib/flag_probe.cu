// Mode 30 (issue 19, thirtieth pass): hw/calib/bench_flags.cu's flag ping-pong as a probe the
// simulator runs, so rows flag.*.one_way_ns are calibration rows. Thread 0 of CTA 0 and of
// CTA 1 (two SMs) pass a count back and forth on two flags, each in its own 128 B line; CTA 0
// starts. `inflight` & 7 is the ordering flavour (calib.cuh's numbering), + 8: before each
// wait the poller adds 0 to its own flag by a relaxed GPU-scope atomic (rows *.own_atomic.*).
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

constexpr int kFlagRelaxedSys = 0, kFlagReleaseAcquireSys = 1, kFlagRelaxedGpu = 2, kFlagReleaseAcquireGpu = 3;

__device__ void flag_store(int flavour, int* p, int v) {
  switch (flavour) {
    case kFlagRelaxedSys: ptx::st_relaxed_sys(p, v); break;
    case kFlagReleaseAcquireSys: ptx::st_release_sys(p, v); break;
    case kFlagRelaxedGpu: ptx::st_relaxed_gpu(p, v); break;
    case kFlagReleaseAcquireGpu: ptx::st_release_gpu(p, v); break;
    default: ptx::st_volatile(p, v); break;
  }
}

__device__ int flag_load(int flavour, const int* p) {
  switch (flavour) {
    case kFlagRelaxedSys: return ptx::ld_relaxed_sys(p);
    case kFlagReleaseAcquireSys: return ptx::ld_acquire_sys(p);
    case kFlagRelaxedGpu: return ptx::ld_relaxed_gpu(p);
    case kFlagReleaseAcquireGpu: return ptx::ld_acquire_gpu(p);
    default: return ptx::ld_volatile(p);
  }
}

__global__ void flag_probe(CalibProbeArgs a) {
  const int flavour = a.inflight & 7;
  const bool own_atomic = a.inflight & kFlagProbeOwnAtomic;
  const bool initiator = blockIdx.x == 0;
  int* flags = reinterpret_cast<int*>(a.buf);
  int* mine = initiator ? flags : flags + 32;
  int* theirs = initiator ? flags + 32 : flags;
  __syncthreads();
  const long long t0 = clock64();
  if (threadIdx.x == 0) {
    for (int i = 1; i <= a.per_thread; ++i) {
      if (initiator) flag_store(flavour, theirs, i);
      if (own_atomic) ptx::atomic_add(reinterpret_cast<uint32_t*>(mine), 0u);
      while (flag_load(flavour, mine) != i) {
      }
      if (!initiator) flag_store(flavour, theirs, i);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_flag_probe(const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(flag_probe, dim3(2), dim3(32), 0, nullptr, args);
}
