// Row code.loop_iter's loop body (code_probe.cu's), run n times by one thread, not unrolled:
// latency-bound index arithmetic with no memory access. Modes 27-29 put it between bulk copies;
// the sum is returned so that the caller can make it take part in an address (no closed form).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "cuda_runtime.h"  // the shim's (__device__)
#endif

__device__ __forceinline__ uint64_t index_code(int n, uint64_t row, uint64_t t) {
  uint64_t acc = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
  for (int i = 0; i < n; ++i) {
    const uint64_t off = (t * 8 + static_cast<uint64_t>(i & 7)) * row + static_cast<uint64_t>(i);
#ifdef __CUDA_ARCH__
    asm volatile("" ::"l"(off));
#else
    asm volatile("" ::"r"(off));  // consumed: no closed form
#endif
    acc += off;
  }
  return acc;
}
