// The kernels' own code between shim calls (address arithmetic, loop control, decoding): the
// kernel translation units are compiled with -fsanitize-coverage=trace-pc, and the CUDA shim's
// __sanitizer_cov_trace_pc counts the basic blocks the running thread enters. The next model
// call of that thread (this_thread()) charges them as issue time of the warp on its SM, like any
// other warp instruction: max(one warp's time per block, warps x the SM's slot per block).
#pragma once
#include <cstdint>

#include "models/nvidia/cuda_thread.h"

namespace symsim::nv {

// Basic blocks entered since the last charge. Fibers switch only inside model calls, so what
// accumulates here between two model calls is the running thread's.
extern uint64_t g_code_blocks;

// Moves the counted blocks onto `t`'s local time.
void charge_code_blocks(CudaThread& t);
// Forgets blocks counted outside a CUDA thread (host code and static initialisers of a
// kernel translation unit).
inline void drop_code_blocks() { g_code_blocks = 0; }

}  // namespace symsim::nv
