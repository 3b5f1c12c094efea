// Verdicts of harness children mapped onto simulated PEs (symsim/forked_pes.h): one table for
// the run (in the World), shared by every PE's private copy of the kernel library.
#include "symsim/forked_pes.h"

#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::forked {

int host_pe() { return host().pe; }
int host_pes() { return static_cast<int>(world().hosts.size()); }
void record_verdict(uint64_t round, int rank, int signal) { world().forked_verdicts[{round, rank}] = signal; }
int verdict(uint64_t round, int rank) {
  const auto it = world().forked_verdicts.find({round, rank});
  return it == world().forked_verdicts.end() ? 0 : it->second;
}

}  // namespace symsim::shim::forked
