// CANN SHMEM's RoCE calls (shmem_device_roce.h) on the die's RoCE NIC model. The calling core
// pays for what upstream's device code does per WQE: it fills the WQE in its UB buffer (scalar
// stores), copies it to the SQ with MTE3 (waited for) and stores the doorbell; the doorbell then
// takes udma.doorbell_ns (the same on-die posted write as UDMA's) to reach the NIC.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/memory/address_map.h"
#include "shmem_device_roce.h"
#include "shmem_host.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::roce {

namespace {

const void* staging(const char* api, const void* ub, CallSite site) {
  AivCore& c = core();
  uint64_t bytes = ACLSHMEM_RDMA_MTE_STAGING_UB_SIZE;
  if (!ub) {  // the aclshmemx_set_rdma_config buffer
    const aclshmem_ub_config_t& cfg = world().hosts[c.pe()].rdma_config;
    BlockContext& b = block();
    if (cfg.aclshmem_ub < 0 || static_cast<uint64_t>(cfg.aclshmem_ub) + cfg.ub_size > b.ub_bytes)
      trap(fmt::format("{}: {}: the RDMA staging buffer (aclshmemx_set_rdma_config: UB offset {}, {} bytes) lies "
                       "outside the {} B Unified Buffer",
                       where(site), api, cfg.aclshmem_ub, cfg.ub_size, b.ub_bytes));
    return b.ub + cfg.aclshmem_ub;
  }
  const Region* r = system().addresses().find(ub, bytes);
  if (!r || r->kind != RegionKind::kUnifiedBuffer || r->core != c.core() || r->pe != c.pe())
    trap(fmt::format("{}: {}: the UB buffer at {} does not hold the {} bytes a WQE is staged in inside this core's "
                     "Unified Buffer",
                     where(site), api, address_name(ub), bytes));
  return ub;
}

void check_peer(const char* api, int pe, CallSite site) {
  if (pe < 0 || pe >= n_pes()) trap(fmt::format("{}: {} to PE {}, outside 0..{}", where(site), api, pe, n_pes() - 1));
  if (pe == my_pe())
    trap(fmt::format("{}: {} to the calling PE {}: upstream's RoCE calls do not support a PE's own memory", where(site),
                     api, pe));
}

void check_hbm(const char* api, const char* what, const void* p, uint64_t bytes, CallSite site) {
  const Region* r = system().addresses().find(p, std::max<uint64_t>(bytes, 1));
  if (!r || r->kind != RegionKind::kHbm)
    trap(fmt::format("{}: {}: the {} ({} bytes at {}) is not in device memory (HBM)", where(site), api, what, bytes,
                     address_name(p)));
}

// The core builds one WQE, stages it to the SQ and rings; returns when the doorbell reaches the NIC.
Ps post_wqe() {
  AivCore& c = core();
  const AscendParams& p = system().params();
  c.scalar_ops(16);
  c.advance(p.ns(p.aiv_mte_latency_ns) + p.ns(p.aiv_st_dev_ns));
  c.sync();  // the NIC serves doorbells in time order
  note_effect();
  return c.local_ps() + p.ns(p.udma_doorbell_ns);
}

// The core polls the CQ of `pe` until `done_ps`, then sees the CQE.
void wait_for(Ps done_ps) {
  AivCore& c = core();
  const AscendParams& p = system().params();
  c.wait_until(std::max(c.local_ps(), done_ps));
  c.advance(p.ns(p.aiv_dcci_ns));
}

}  // namespace

void* ptr(const void* p, int pe) { return symmetric_ptr(p, pe); }

void rma(const char* api, bool put, void* dst, const void* src, uint64_t bytes, int pe, const void* ub) {
  const CallSite site = SYMSIM_CALLER();
  check_peer(api, pe, site);
  staging(api, ub, site);
  auto* to = static_cast<uint8_t*>(put ? mte::peer_at(api, dst, pe, site) : dst);
  const auto* from = static_cast<const uint8_t*>(put ? src : mte::peer_at(api, src, pe, site));
  check_hbm(api, "destination", to, bytes, site);
  check_hbm(api, "source", from, bytes, site);
  const Ps posted = post_wqe();
  RoceEngine& nic = system().roce(my_pe());
  if (put) nic.write(pe, to, from, bytes, posted);
  else nic.read(pe, to, from, bytes, posted);
}

void quiet(const char* api, int pe, const void* ub) {
  const CallSite site = SYMSIM_CALLER();
  check_peer(api, pe, site);
  staging(api, ub, site);
  wait_for(system().roce(my_pe()).quiet_ps(pe));
}

void team_sync(const char* api, int team, bool quiet_peers, const void* ub) {
  const CallSite site = SYMSIM_CALLER();
  staging(api, ub, site);
  const Team* t = find_team(team);
  if (!t || !t->has(my_pe()))
    trap(fmt::format("{}: {} on team {}, {}", where(site), api, team,
                     t ? fmt::format("which PE {} is not a member of", my_pe()) : std::string("not a live team")));
  if (quiet_peers) {
    Ps done = 0;
    for (int r = 0; r < t->size; ++r)
      if (t->world_of(r) != my_pe()) done = std::max(done, system().roce(my_pe()).quiet_ps(t->world_of(r)));
    wait_for(done);
  }
  // Each dissemination round: a signal WQE posted, through the NIC and across the plane, landed
  // in HBM and seen by the peer's poll.
  const AscendParams& p = system().params();
  const Ps hop = p.ns(p.aiv_mte_latency_ns) + p.ns(p.aiv_st_dev_ns) + p.ns(p.udma_doorbell_ns) + p.ns(p.roce_wqe_ns) +
                 p.ns(p.roce_latency_ns) + p.ns(p.hbm_latency_ns) + p.ns(p.aiv_dcci_ns);
  team_device_barrier(team, api, site, hop);
}

uint64_t amo(const char* api, Amo op, void* dst, uint64_t value, uint64_t cond, uint32_t width, int pe, bool fetch) {
  const CallSite site = SYMSIM_CALLER();
  if (system().params().roce_xscale_atomics == 0)
    trap(fmt::format("{}: {}: RoCE atomics are issued on upstream's XSCALE RDMA backend only, which this platform's "
                     "NIC is not (roce.xscale_atomics = 0)",
                     where(site), api));
  check_peer(api, pe, site);
  auto* word = static_cast<uint8_t*>(mte::peer_at(api, dst, pe, site));
  check_hbm(api, "atomic word", word, width, site);
  // The old value returns to the QP's AMO buffer, which the fetching forms read after a quiet.
  auto result = std::make_shared<uint64_t>(0);
  const RoceEngine::AtomicOp rmw = [op, value, cond, width, result](uint8_t* w) {
    uint64_t old = 0;
    std::memcpy(&old, w, width);
    const uint64_t mask = width == 8 ? ~uint64_t{0} : 0xffffffffull;
    uint64_t now = old;
    switch (op) {
      case Amo::kFetchAdd: now = old + value; break;
      case Amo::kCompareSwap: now = (old & mask) == (cond & mask) ? value : old; break;
      case Amo::kSwap: now = value; break;
      case Amo::kAnd: now = old & value; break;
      case Amo::kOr: now = old | value; break;
      case Amo::kXor: now = old ^ value; break;
    }
    std::memcpy(w, &now, width);
    *result = old & mask;
    return old & mask;
  };
  const Ps posted = post_wqe();
  const Ps done = system().roce(my_pe()).atomic(pe, word, width, rmw, nullptr, posted);
  if (!fetch) return 0;
  wait_for(done);
  return *result;
}

}  // namespace symsim::shim::roce

int aclshmemx_set_rdma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id) {
  using namespace symsim::shim;
  if (ub_size < ACLSHMEM_RDMA_MTE_STAGING_UB_SIZE) return ACLSHMEM_INVALID_VALUE;
  const bool in_kernel = symsim::AivCore::current() != nullptr;
  const int pe = in_kernel ? symsim::AivCore::current()->pe() : host().pe;
  if (in_kernel) core().scalar_ops(3);
  world().hosts[pe].rdma_config = {static_cast<int64_t>(offset), ub_size, sync_id};
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_set_sdma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id) {
  using namespace symsim::shim;
  const bool in_kernel = symsim::AivCore::current() != nullptr;
  const int pe = in_kernel ? symsim::AivCore::current()->pe() : host().pe;
  if (in_kernel) core().scalar_ops(3);
  world().hosts[pe].sdma_config = {static_cast<int64_t>(offset), ub_size, sync_id};
  return ACLSHMEM_SUCCESS;
}
