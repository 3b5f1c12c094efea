// gcc's -fsanitize-coverage=trace-pc calls this at the entry of every basic block of the kernel
// translation units (kernels/*/CMakeLists.txt, tools/symsim-nvcc): one counter increment, which
// the next model call charges to the running CUDA thread (models/nvidia/code_cost.h). This file
// itself is not instrumented.
#include "models/nvidia/code_cost.h"

extern "C" void __sanitizer_cov_trace_pc() { ++symsim::nv::g_code_blocks; }
