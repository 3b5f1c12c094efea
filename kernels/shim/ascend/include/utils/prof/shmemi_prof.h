// CANN SHMEM's kernel cycle profiling macros: SHMEMI_PROF_START(frame) / SHMEMI_PROF_END(frame)
// around a timed window add its AscendC::GetSystemCycle() span to the calling block's entry for
// `frame` (on the profiled PE, SHMEM_CYCLE_PROF_PE), after draining the core's pipes.
#pragma once
#include "kernel_operator.h"
#include "shmem_types.h"

namespace symsim::shim {
// Marks the start (end = false) or end of a profiled window of `frame` on the calling block.
void prof_mark(int64_t frame, bool end);
}  // namespace symsim::shim

#define SHMEMI_PROF_START(pf_id) ::symsim::shim::prof_mark((pf_id), false)
#define SHMEMI_PROF_END(pf_id) ::symsim::shim::prof_mark((pf_id), true)
