// The combine check's reference and comparison on a thread of the host program's own. The
// simulation uses one core; at EP 256 every rank's check (its inputs drawn again, the reference
// combine, the compare) falls after the last combine ends, about 0.8 CPU-s that held up the
// run's end (docs/performance.md, session 30). The verdict is the same function of the same
// bytes whichever thread computes it, and its place in the check list is taken when asked.
#pragma once
#include <cstdint>

#include "kernels/moe/host/moe_workload.h"

namespace moe {

// Checks `got` (this rank's combine output, tokens x hidden BF16, as the device holds it now)
// against the host reference of (rank, launch), `r` being the rank's routing for the launch.
// `got` is copied: the caller's bytes may change once this returns.
void check_combine_later(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch,
                         const uint16_t* got);

// Runs the checks still queued on this thread as well, until none is left to start.
void help_combine_checks();

}  // namespace moe
