// The generic RMA calls' routing and staging (shmem_device_rma.h), and
// aclshmemx_set_udma_config for host programs and kernels.
#include <fmt/format.h>

#include "shmem_device_amo.h"
#include "shmem_device_rma.h"
#include "shmem_host.h"
#include "udma_queue.h"
#include "world.h"

namespace symsim::shim::rma {

UdmaRoute udma_route(const char* api, int pe) {
  AivCore& c = core();
  c.scalar_ops(2);  // read the transport and the staging config from the device state
  const CallSite site = SYMSIM_CALLER();
  if (pe < 0 || pe >= n_pes())
    trap(fmt::format("{}: {} to PE {}, outside 0..{}", where(site), api, pe, n_pes() - 1));
  if (pe == c.pe())
    trap(fmt::format("{}: {} to the calling PE {}: upstream takes the MTE transport to a PE's own memory, "
                     "which symsim does not model",
                     where(site), api, pe));
  const aclshmem_udma_config_t& cfg = world().hosts[c.pe()].udma_config;
  BlockContext& b = block();
  if (cfg.aclshmem_ub < 0 || static_cast<uint64_t>(cfg.aclshmem_ub) + cfg.ub_size > b.ub_bytes)
    trap(fmt::format("{}: {}: the UDMA staging buffer (aclshmemx_set_udma_config: UB offset {}, {} bytes) lies "
                     "outside the {} B Unified Buffer",
                     where(site), api, cfg.aclshmem_ub, cfg.ub_size, b.ub_bytes));
  return {b.ub + cfg.aclshmem_ub, cfg.sync_id};
}

void quiet_all(const char* api) {
  (void)api;
  const CallSite site = SYMSIM_CALLER();
  const int me = my_pe();
  const bool relay_build = world().hosts[me].relay_build;
  for (int pe = 0; pe < n_pes(); ++pe)
    if (pe != me) udma_quiet_at(pe, 0, relay_build, site);
}

}  // namespace symsim::shim::rma

namespace symsim::shim::amo {

void check_udma_peer(const char* api, int pe) {
  const CallSite site = SYMSIM_CALLER();
  if (pe < 0 || pe >= n_pes())
    trap(fmt::format("{}: {} on PE {}, outside 0..{}", where(site), api, pe, n_pes() - 1));
  if (pe == my_pe())
    trap(fmt::format("{}: {} on the calling PE {}: upstream takes the MTE transport to a PE's own memory, "
                     "which symsim does not model",
                     where(site), api, pe));
}

}  // namespace symsim::shim::amo

int aclshmemx_set_udma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id) {
  using namespace symsim;
  using namespace symsim::shim;
  const bool in_kernel = AivCore::current() != nullptr;
  if (ub_size < ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE) {
    if (in_kernel)
      trap(fmt::format("aclshmemx_set_udma_config: UDMA MTE staging UB size {} is under the minimum of {} bytes",
                       ub_size, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE));
    return ACLSHMEM_INVALID_VALUE;
  }
  const int pe = in_kernel ? AivCore::current()->pe() : host().pe;
  if (in_kernel) core().scalar_ops(3);
  world().hosts[pe].udma_config = {static_cast<int64_t>(offset), ub_size, sync_id};
  return ACLSHMEM_SUCCESS;
}
