// The kernels' code count (models/nvidia/code_cost.h), which the next model call charges to the
// running CUDA thread. The kernel translation units (kernels/*/CMakeLists.txt, tools/symsim-nvcc)
// are compiled with -fsanitize-coverage=trace-pc and assembled through tools/code-weights/as:
// every basic block then calls __symsim_code_insns with its instruction count in %edi. An object
// compiled without the rewrite calls __sanitizer_cov_trace_pc: its blocks count as the
// calibration loop's. This file itself is not instrumented.
#include <cstdint>

#include "models/nvidia/code_cost.h"

// Bits 16-23 count the block's integer divisions, the top byte its jumps (tools/code-weights/as).
extern "C" void __symsim_code_insns(uint32_t insns) {
  symsim::nv::g_code_insns += insns & 0xffffu;
  symsim::nv::g_code_divs += (insns >> 16) & 0xffu;
  symsim::nv::g_code_jumps += insns >> 24;
}
extern "C" void __sanitizer_cov_trace_pc() {
  symsim::nv::g_code_insns += symsim::nv::kUnweighedBlockInsns;
  symsim::nv::g_code_jumps += 1;
}
