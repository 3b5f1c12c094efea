// Mode 30 (issue 19, thirtieth pass): hw/calib/bench_flags.cu's flag ping-pong as a probe the
// simulator runs, so rows flag.*.one_way_ns are calibration rows. Thread 0 of CTA 0 and of
// CTA 1 (two SMs) pass a count back and forth on two flags, each in its own 128 B line; CTA 0
// starts. `inflight` & 7 is the ordering flavour (calib.cuh's numbering), + 8: before each
// wait the poller adds 0 to its own flag by a relaxed GPU-scope atomic (rows *.own_atomic.*);
// + 16 / + 32 with flavours 1 and 3: the store / the load relaxed, the release or the acquire
// alone (thirty-first pass (s25-flag): which side pays the ordering's cost).
// The loop is hw/calib/flag_ping_pong.cuh's, bench_flags' own; the flavour is chosen once, outside it.
#include "hw/calib/flag_ping_pong.cuh"
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

constexpr int kFlagRelaxedSys = 0, kFlagReleaseAcquireSys = 1, kFlagRelaxedGpu = 2, kFlagReleaseAcquireGpu = 3;

// flag_ping_pong's flavour policies over the shim's PTX calls.
struct OwnAtomic {
  static __device__ void own_atomic(int* p) { ptx::atomic_add(reinterpret_cast<uint32_t*>(p), 0u); }
};
struct RelaxedSys : OwnAtomic {
  static __device__ void store(int* p, int v) { ptx::st_relaxed_sys(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_relaxed_sys(p); }
};
struct ReleaseAcquireSys : OwnAtomic {
  static __device__ void store(int* p, int v) { ptx::st_release_sys(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_acquire_sys(p); }
};
struct RelaxedGpu : OwnAtomic {
  static __device__ void store(int* p, int v) { ptx::st_relaxed_gpu(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_relaxed_gpu(p); }
};
struct ReleaseAcquireGpu : OwnAtomic {
  static __device__ void store(int* p, int v) { ptx::st_release_gpu(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_acquire_gpu(p); }
};
struct Volatile : OwnAtomic {
  static __device__ void store(int* p, int v) { ptx::st_volatile(p, v); }
  static __device__ int load(const int* p) { return ptx::ld_volatile(p); }
};

// One side's accesses ordered, the other's relaxed.
template <class StoreFlag, class LoadFlag>
struct Split : OwnAtomic {
  static __device__ void store(int* p, int v) { StoreFlag::store(p, v); }
  static __device__ int load(const int* p) { return LoadFlag::load(p); }
};

template <class Flag>
__device__ void ping_pong(bool own_atomic, int* mine, int* theirs, int iters, bool initiator) {
  if (own_atomic) {
    flag_ping_pong<Flag, true>(mine, theirs, iters, initiator);
  } else {
    flag_ping_pong<Flag, false>(mine, theirs, iters, initiator);
  }
}

template <class Ordered, class Relaxed>
__device__ void ping_pong_ordered(int inflight, int* mine, int* theirs, int iters, bool initiator) {
  const bool own_atomic = inflight & kFlagProbeOwnAtomic;
  if (inflight & kFlagProbeStoreRelaxed) {
    ping_pong<Split<Relaxed, Ordered>>(own_atomic, mine, theirs, iters, initiator);
  } else if (inflight & kFlagProbeLoadRelaxed) {
    ping_pong<Split<Ordered, Relaxed>>(own_atomic, mine, theirs, iters, initiator);
  } else {
    ping_pong<Ordered>(own_atomic, mine, theirs, iters, initiator);
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
    switch (flavour) {
      case kFlagRelaxedSys: ping_pong<RelaxedSys>(own_atomic, mine, theirs, a.per_thread, initiator); break;
      case kFlagReleaseAcquireSys:
        ping_pong_ordered<ReleaseAcquireSys, RelaxedSys>(a.inflight, mine, theirs, a.per_thread, initiator);
        break;
      case kFlagRelaxedGpu: ping_pong<RelaxedGpu>(own_atomic, mine, theirs, a.per_thread, initiator); break;
      case kFlagReleaseAcquireGpu:
        ping_pong_ordered<ReleaseAcquireGpu, RelaxedGpu>(a.inflight, mine, theirs, a.per_thread, initiator);
        break;
      default: ping_pong<Volatile>(own_atomic, mine, theirs, a.per_thread, initiator); break;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_flag_probe(const CalibProbeArgs& args) {
  return SYMSIM_LAUNCH(flag_probe, dim3(2), dim3(32), 0, nullptr, args);
}
