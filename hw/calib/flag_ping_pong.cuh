// The flag rows' ping-pong (issue 19, flag.*.one_way_ns), one loop for both probes that measure
// them: hw/calib/bench_flags.cu (calib.cuh's raw PTX) and calib_probe mode 30 (flag_probe.cu,
// the shim's ptx:: calls, the kernel the simulator runs). `Flag` gives the ordering flavour as
// static store(int*, int), load(const int*) and own_atomic(int*): a template parameter, so
// the loop holds only that flavour's accesses and no branch on it (a switch inside the loop
// made mode 30's poll period longer on the GPU than bench_flags': thirty-first pass (s25-flag)).
// Here, beside calib.cuh, because hw/calib is also built outside the tree (docs/includes.md);
// flag_probe.cu includes it by its path from the root.
#pragma once
// __device__: CUDA's runtime header under nvcc, the shim's (symsim/cuda/device.h) for the simulator.
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "cuda_runtime.h"
#endif

// Thread `initiator`'s side: `theirs` is written here, `mine` polled here (the other side writes
// it). Round trip i: the initiator stores i, the other side sees it and stores i back. With
// kOwnAtomic the poller adds 0 to `mine` by an atomic before each wait (rows *.own_atomic.*).
template <class Flag, bool kOwnAtomic>
__device__ __forceinline__ void flag_ping_pong(int* mine, int* theirs, int iters, bool initiator) {
  for (int i = 1; i <= iters; ++i) {
    if (initiator) Flag::store(theirs, i);
    if constexpr (kOwnAtomic) Flag::own_atomic(mine);
    while (Flag::load(mine) != i) {
    }
    if (!initiator) Flag::store(theirs, i);
  }
}
