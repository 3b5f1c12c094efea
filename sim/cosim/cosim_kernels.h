// Kernels a co-simulated host program may launch, by name: each entry is the host-side
// launch function a kernel source defines (its ACLRT_LAUNCH_KERNEL wrapper), its parameters
// after (block_dim, stream), and their names. The host library defines a stub per entry that
// sends the launch to the simulator; the simulator calls the real function with the arguments.
// (Kernel libraries loaded with --kernel-lib are not co-simulated yet: only these.)
#pragma once
#include <cstdint>

#define SYMSIM_COSIM_UNPAREN(...) __VA_ARGS__

#define SYMSIM_COSIM_KERNELS(X)                                                                             \
  X(udma_put, launch_udma_put,                                                                              \
    (uint8_t * dst, uint8_t * src, uint64_t bytes, uint64_t rounds, uint64_t quiet_every, uint32_t pipe_s), \
    (dst, src, bytes, rounds, quiet_every, pipe_s))                                                         \
  X(udma_put_signal, launch_udma_put_signal,                                                                \
    (uint8_t * dst, uint8_t * src, uint8_t * seen, uint8_t * sig, uint64_t bytes, uint64_t rounds),         \
    (dst, src, seen, sig, bytes, rounds))                                                                   \
  X(udma_get, launch_udma_get, (uint8_t * dst, uint8_t * src, uint64_t bytes, uint64_t rounds),             \
    (dst, src, bytes, rounds))                                                                              \
  X(udma_allgather, launch_udma_allgather, (uint8_t * gva, uint64_t bytes), (gva, bytes))

// Declarations of the launch functions (defined in kernels/udma/*/..._kernel.cpp).
#define SYMSIM_COSIM_DECLARE(id, fn, params, names) \
  void fn(uint32_t block_dim, void* stream, SYMSIM_COSIM_UNPAREN params);
SYMSIM_COSIM_KERNELS(SYMSIM_COSIM_DECLARE)
#undef SYMSIM_COSIM_DECLARE
