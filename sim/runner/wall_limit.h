// `symsim run --max-wall-s S`: a wall-clock limit on one run. When it passes, the process
// prints why on stderr and exits with kExitWallLimit (124, as timeout(1) and `sweep --timeout`),
// writing no result. Output files are written atomically with SIGALRM held (sim/io), so the
// limit never leaves a partial or temporary file. One run per process: arm once.
#pragma once

namespace symsim {

constexpr int kExitWallLimit = 124;

// Arms the limit (seconds > 0); `what` names the run in the message.
void arm_wall_limit(double seconds, const char* what);
// Disarms it (the run finished; only writing its outputs is left).
void disarm_wall_limit();

}  // namespace symsim
