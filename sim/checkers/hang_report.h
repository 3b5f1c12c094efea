// Hang diagnosis: when the run stopped with programs unfinished (a deadlock the shim found or
// the simulation ran dry, the time limit, or a poll past the shim's retry limit), one hazard
// per waiting coroutine saying who waits on which address for which value, what the address
// holds, and who last wrote it and when.
#pragma once
#include <vector>

#include "sim/checkers/checker_context.h"
#include "sim/checkers/hang_hazards.h"
#include "sim/checkers/write_history.h"
#include "symsim/shim_runtime.h"

namespace symsim {

// `id`: kDeadlock or kTimeout; `why` heads every detail.
void report_hang(CheckerContext& ctx, const WriteHistory& history, const HazardId& id, const std::string& why,
                 const std::vector<shim::WaitRecord>& waits, Ps now);

}  // namespace symsim
