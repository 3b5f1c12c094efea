// CANN SHMEM's SIMT device API (shmem_device_simt.h): the calling SIMT thread's loads and stores.
#include <fmt/format.h>

#include <cstring>

#include "models/memory/address_map.h"
#include "shmem_device_simt.h"
#include "symsim/simt.h"
#include "symsim/udma_shim.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::simt_rma {

namespace {

constexpr uint64_t kWarpSize = 32;

// This thread's index in its group and the group's size.
std::pair<uint64_t, uint64_t> place_in(Group g) {
  const simt::Index3& i = simt::thread_idx();
  const simt::Index3& d = simt::block_dim();
  const uint64_t linear = i.x + uint64_t{i.y} * d.x + uint64_t{i.z} * d.x * d.y;
  const uint64_t threads = uint64_t{d.x} * d.y * d.z;
  if (g == Group::kBlock) return {linear, threads};
  if (g == Group::kWarp) return {linear % kWarpSize, std::min(threads, kWarpSize)};
  return {0, 1};
}

// One element: a load from `from` and a store to `to`. A store into another PE's HBM is posted
// across the fabric and lands when it arrives (the value as loaded now); a store to this PE's
// HBM is a core store the checkers hear of.
void move(uint8_t* to, const uint8_t* from, uint64_t bytes, const Region* to_region, Ps arrive_ps) {
  simt::count_op();
  simt::count_op();
  if (to_region && to_region->kind == RegionKind::kHbm && to_region->pe != my_pe()) {
    system().visibility().schedule(arrive_ps, 0, 0, to, from, bytes);
    return;
  }
  const bool gm = to_region && to_region->kind == RegionKind::kHbm;
  if (gm) before_core_store(to, bytes);
  std::memcpy(to, from, bytes);
  if (gm) note_store(to, bytes, "SIMT store");
}

}  // namespace

void* ptr(const void* p, int pe) { return symmetric_ptr(p, pe); }
int my_pe() { return ::symsim::shim::my_pe(); }
int n_pes() { return ::symsim::shim::n_pes(); }

void copy(const char* api, Group group, void* dst, const void* src, uint64_t elem_bytes, uint64_t count, int pe,
          bool put) {
  const CallSite site = SYMSIM_CALLER();
  if (!simt::in_vf())
    trap(fmt::format("{}: {} called outside a SIMT VF (VF_CALL): upstream's device_simt calls are __simt_callee__",
                     where(site), api));
  if (group != Group::kThread) simt::barrier();
  auto* to = static_cast<uint8_t*>(put ? mte::peer_at(api, dst, pe, site) : dst);
  const auto* from = static_cast<const uint8_t*>(put ? src : mte::peer_at(api, src, pe, site));
  AscendSystem& sys = system();
  const uint64_t bytes = elem_bytes * count;
  const Region* to_region = bytes ? sys.addresses().find(to, bytes) : nullptr;
  const Region* from_region = bytes ? sys.addresses().find(from, bytes) : nullptr;
  // Device memory must hold both sides, except the thread's own variable of a _p / _g.
  const bool scalar = count == 1 && (!to_region || !from_region);
  if (bytes && !scalar && (!to_region || !from_region))
    trap(fmt::format("{}: {}: {} bytes from {} to {} run outside device memory", where(site), api, bytes,
                     address_name(from), address_name(to)));
  Ps arrive = 0;
  if (to_region && to_region->kind == RegionKind::kHbm && to_region->pe != my_pe()) {
    const AscendParams& p = sys.params();
    arrive = core().local_ps() + sys.fabric().control_latency_ps(my_pe(), to_region->pe) + p.ns(p.hbm_latency_ns);
  }
  const auto [first, stride] = place_in(group);
  for (uint64_t e = first; e < count; e += stride)
    move(to + e * elem_bytes, from + e * elem_bytes, elem_bytes, to_region, arrive);
  if (group != Group::kThread) simt::barrier();
}

}  // namespace symsim::shim::simt_rma
