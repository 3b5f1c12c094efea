// For test harnesses that fork one process per PE (CANN SHMEM's unit tests): under symsim each
// PE's host program already is that process, so tools/upstream-unittest/fork_as_pe.cpp maps
// the harness's fork()/raise()/waitpid() onto the simulated PEs through these calls.
#pragma once
#include <cstdint>

namespace symsim::shim::forked {
// The PE of the calling host program and the number of host programs (callable before init).
int host_pe();
int host_pes();
// The verdict (a signal number, as the forked child raised it) of `rank`'s child in fork
// round `round`; 0 while that child has not finished.
void record_verdict(uint64_t round, int rank, int signal);
int verdict(uint64_t round, int rank);
}  // namespace symsim::shim::forked
