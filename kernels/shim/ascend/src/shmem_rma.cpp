// The generic RMA calls' routing and staging (shmem_device_rma.h), and
// aclshmemx_set_udma_config for host programs and kernels.
#include <fmt/format.h>

#include <cstring>

#include "shmem_device_amo.h"
#include "shmem_device_rma.h"
#include "shmem_host.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

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

void scalar_put(const char* api, void* dst, const void* value, uint32_t bytes, int pe) {
  const CallSite site = SYMSIM_CALLER();
  auto* word = static_cast<uint8_t*>(mte::peer_at(api, dst, pe, site));
  AivCore& c = core();
  c.before_store(word, bytes);
  std::memcpy(word, value, bytes);
  c.scalar_ops(1);
  cache_clean_invalidate_at(word, bytes, site);
}

void scalar_get(const char* api, void* out, const void* src, uint32_t bytes, int pe) {
  const CallSite site = SYMSIM_CALLER();
  const auto* word = static_cast<const uint8_t*>(mte::peer_at(api, src, pe, site));
  cache_clean_invalidate_at(word, 64, site, bytes);
  std::memcpy(out, word, bytes);
  core().scalar_ops(1);
}

void ub_nbi(const char* api, bool put, void* dst, const void* src, uint64_t bytes, int pe) {
  const CallSite site = SYMSIM_CALLER();
  void* to = put ? mte::peer_at(api, dst, pe, site) : dst;
  const void* from = put ? src : mte::peer_at(api, src, pe, site);
  mte::copy_direct_at(api, to, bytes, from, bytes, bytes, 1, site);
}

void own_pe(const char* api, void* dst, const void* src, uint64_t bytes, bool blocking) {
  const CallSite site = SYMSIM_CALLER();
  AivCore& c = core();
  c.scalar_ops(2);  // read the transport and the MTE staging config from the device state
  const aclshmem_ub_config_t& cfg = world().hosts[c.pe()].mte_config;
  BlockContext& b = block();
  if (cfg.aclshmem_ub < 0 || static_cast<uint64_t>(cfg.aclshmem_ub) + cfg.ub_size > b.ub_bytes)
    trap(fmt::format("{}: {}: the MTE staging buffer (aclshmemx_set_mte_config: UB offset {}, {} bytes) lies outside "
                     "the {} B Unified Buffer",
                     where(site), api, cfg.aclshmem_ub, cfg.ub_size, b.ub_bytes));
  mte::copy_via_ub_at(api, dst, bytes, src, bytes, bytes, 1, b.ub + cfg.aclshmem_ub, cfg.ub_size, cfg.sync_id, site);
  if (blocking) pipe_sync_at(PipeSyncRecord::kBarrier, AivPipe::kAll, AivPipe::kAll, 0, site);
}

void strided(const char* api, bool put, void* dst, const void* src, ptrdiff_t dst_stride, ptrdiff_t src_stride,
             uint32_t elem_bytes, size_t row_elems, size_t rows, int pe) {
  const CallSite site = SYMSIM_CALLER();
  if (dst_stride <= 0 || src_stride <= 0)
    trap(fmt::format("{}: {} with strides dst {} / src {}: both must be positive", where(site), api, dst_stride,
                     src_stride));
  AivCore& c = core();
  c.scalar_ops(2);  // read the MTE staging config from the device state
  const aclshmem_ub_config_t& cfg = world().hosts[c.pe()].mte_config;
  BlockContext& b = block();
  if (cfg.aclshmem_ub < 0 || static_cast<uint64_t>(cfg.aclshmem_ub) + cfg.ub_size > b.ub_bytes)
    trap(fmt::format("{}: {}: the MTE staging buffer (aclshmemx_set_mte_config: UB offset {}, {} bytes) lies outside "
                     "the {} B Unified Buffer",
                     where(site), api, cfg.aclshmem_ub, cfg.ub_size, b.ub_bytes));
  void* to = put ? mte::peer_at(api, dst, pe, site) : dst;
  const void* from = put ? src : mte::peer_at(api, src, pe, site);
  mte::copy_via_ub_at(api, to, static_cast<uint64_t>(dst_stride) * elem_bytes, from,
                      static_cast<uint64_t>(src_stride) * elem_bytes, row_elems * elem_bytes, rows, b.ub + cfg.aclshmem_ub,
                      cfg.ub_size, cfg.sync_id, site);
  pipe_sync_at(PipeSyncRecord::kBarrier, AivPipe::kAll, AivPipe::kAll, 0, site);  // blocking: complete on return
}

}  // namespace symsim::shim::rma

namespace symsim::shim::amo {

bool own_pe(const char* api, int pe) {
  const CallSite site = SYMSIM_CALLER();
  if (pe < 0 || pe >= n_pes())
    trap(fmt::format("{}: {} on PE {}, outside 0..{}", where(site), api, pe, n_pes() - 1));
  return pe == my_pe();
}

void no_path(const char* api, int pe, const char* why) {
  trap(fmt::format("{}: {} on PE {} ({}): {}", where(SYMSIM_CALLER()), api, pe,
                   pe == my_pe() ? "the calling PE, reached by MTE" : "reached by UDMA", why));
}

}  // namespace symsim::shim::amo

int aclshmemx_set_mte_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id) {
  using namespace symsim;
  using namespace symsim::shim;
  const bool in_kernel = AivCore::current() != nullptr;
  const int pe = in_kernel ? AivCore::current()->pe() : host().pe;
  if (in_kernel) core().scalar_ops(3);
  world().hosts[pe].mte_config = {static_cast<int64_t>(offset), ub_size, sync_id};
  return ACLSHMEM_SUCCESS;
}

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
