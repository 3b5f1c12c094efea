// Point-to-point synchronisation and device collectives (shmem_device_sync.h).
#include <fmt/format.h>

#include "shmem_device_sync.h"
#include "symsim/udma_shim.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::p2p {

void check_cmp(const char* api, int cmp) {
  if (cmp >= ACLSHMEM_CMP_EQ && cmp <= ACLSHMEM_CMP_LE) return;
  trap(fmt::format("{}: {} with comparison {}, which is not an ACLSHMEM_CMP_* value (EQ 0 .. LE 5)",
                   where(SYMSIM_CALLER()), api, cmp));
}

void device_barrier_all(const char* api) { vector_barrier_all_at(SYMSIM_CALLER(), api); }

void device_barrier_team(const char* api, int team) {
  if (AivCore::current())
    team_device_barrier(team, api, SYMSIM_CALLER());
  else
    team_host_barrier(team, api);
}

void signal_op(int32_t* sig_addr, int32_t signal, int sig_op, int pe) {
  const CallSite site = SYMSIM_CALLER();
  if (sig_op != ACLSHMEM_SIGNAL_SET && sig_op != ACLSHMEM_SIGNAL_ADD)
    trap(fmt::format("{}: aclshmemx_signal_op with operation {}, which is neither ACLSHMEM_SIGNAL_SET (0) nor "
                     "ACLSHMEM_SIGNAL_ADD (1)",
                     where(site), sig_op));
  if (pe < 0 || pe >= n_pes())
    trap(fmt::format("{}: aclshmemx_signal_op to PE {}, outside 0..{}", where(site), pe, n_pes() - 1));
  const auto bits = static_cast<uint64_t>(static_cast<uint32_t>(signal));
  if (pe != my_pe()) {
    const bool relay_build = world().hosts[my_pe()].relay_build;
    if (sig_op == ACLSHMEM_SIGNAL_SET)
      udma_atomic_emulated_at(AmoEmulated::kSet, sig_addr, bits, 4, pe, relay_build, "aclshmemx_signal_op", site);
    else
      udma_atomic_fetch_add_at(sig_addr, bits, 4, pe, true, relay_build, "aclshmemx_signal_op", site);  // reaps its CQE
    return;
  }
  // The calling PE's own word: a scalar store, written back.
  core().before_store(reinterpret_cast<const uint8_t*>(sig_addr), sizeof(int32_t));
  *sig_addr = sig_op == ACLSHMEM_SIGNAL_SET ? signal : static_cast<int32_t>(static_cast<uint32_t>(*sig_addr) + bits);
  core().scalar_ops(2);
  cache_clean_invalidate_at(sig_addr, sizeof(int32_t), site);
}

void set_ffts_config(uint64_t) {
  // The FFTS base tells the hardware where cross-core sync flags live; symsim's barriers are
  // analytic (docs/design.md), so there is nothing to point. The call costs a scalar op.
  core().scalar_ops(1);
}

}  // namespace symsim::shim::p2p
