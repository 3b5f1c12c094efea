// Modes 14 and 15 with `stride` >= 1 << 16 (issue 19, eighteenth pass): the grid sync and the
// signal-and-wait of comm.cuh with their release taken apart, by the bits of `stride` >> 16:
// 1 this kernel (the same steps as comm.cuh's), 2 the arrival or signal relaxed (no release:
// no MEMBAR before the atomic), 4 (mode 15) the signal red.release.gpu (a GPU-scope MEMBAR).
// A kernel of its own so that shim_probe's (its rows' code as counted) stays as it was.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "kernels/nvlink/common/comm.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

constexpr uint32_t kSyncRelaxed = 2, kSyncReleaseGpu = 4;

__device__ void grid_sync(uint32_t* count, uint32_t num_sms, uint32_t thread, bool relaxed) {
  __syncthreads();
  if (thread == 0) {
    const uint32_t add = blockIdx.x == 0 ? 0x80000000u - (num_sms - 1) : 1u;
    const uint32_t old = relaxed ? ptx::atomic_add(count, add) : ptx::atomic_add_rel(count, add);
    while (((ptx::ld_acquire_gpu(count) ^ old) & 0x80000000u) == 0) {
    }
  }
  __syncthreads();
}

__device__ void signal_and_wait(comm::Workspace* ws, uint32_t thread, uint32_t route) {
  const int status = ptx::ld_weak(&ws->nvl_barrier_counter) & 3;
  const int phase = status & 1, sign = status >> 1;
  int* signal = &ws->nvl_barrier_signal[phase];
  if (thread == 0) {
    if (route & kSyncRelaxed) {
      ptx::red_add_sys(signal, sign ? -1 : 1);
    } else if (route & kSyncReleaseGpu) {
      ptx::red_add_rel_gpu(signal, sign ? -1 : 1);
    } else {
      ptx::red_add_rel_sys(signal, sign ? -1 : 1);
    }
  }
  __syncthreads();
  if (thread == 0) {
    ptx::red_add(&ws->nvl_barrier_counter, 1);
    const int target = sign ? 0 : 1;
    while (ptx::ld_acquire_sys(signal) != target) {
    }
  }
}

__global__ void sync_probe(CalibProbeArgs a) {
  const uint32_t thread = threadIdx.x, route = a.stride >> 16;
  __syncthreads();
  const long long t0 = clock64();
  if (a.mode == kProbeGridSync) {
    for (int r = 0; r < a.per_thread; ++r) grid_sync(reinterpret_cast<uint32_t*>(a.word), gridDim.x, thread, route & kSyncRelaxed);
  } else {
    auto* ws = reinterpret_cast<comm::Workspace*>(a.buf);
    for (int r = 0; r < a.per_thread; ++r) signal_and_wait(ws, thread, route);
  }
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_sync_probe(int ctas, int threads, const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(sync_probe, dim3(ctas), dim3(threads), 0, nullptr, args);
}
