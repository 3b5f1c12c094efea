// Point-to-point synchronisation and device collectives (shmem_device_sync.h).
#include <fmt/format.h>

#include "shmem_device_sync.h"
#include "world.h"

namespace symsim::shim::p2p {

void check_cmp(const char* api, int cmp, CallSite site) {
  if (cmp >= ACLSHMEM_CMP_EQ && cmp <= ACLSHMEM_CMP_LE) return;
  trap(fmt::format("{}:{}: {} with comparison {}, which is not an ACLSHMEM_CMP_* value (EQ 0 .. LE 5)",
                   site.file ? site.file : "?", site.line, api, cmp));
}

void device_barrier_all(const char* api, CallSite site) { vector_barrier_all(site, api); }

void set_ffts_config(uint64_t) {
  // The FFTS base tells the hardware where cross-core sync flags live; symsim's barriers are
  // analytic (docs/design.md), so there is nothing to point. The call costs a scalar op.
  core().scalar_ops(1);
}

}  // namespace symsim::shim::p2p
