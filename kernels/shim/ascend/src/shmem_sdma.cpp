// CANN SHMEM's SDMA calls (shmem_device_sdma.h) on the die's SDMA engine model. The calling core
// pays for what upstream's device code does around each submission: it reads its queue's tail
// (dcci and a load), fills one SQE per MiB (scalar stores), writes the SQEs back (dcci) and rings
// the doorbell with two 4-byte MTE3 copies each waited for; the doorbell then takes
// udma.doorbell_ns (the same on-die posted write as UDMA's) to reach STARS.
#include <fmt/format.h>

#include <algorithm>

#include "models/memory/address_map.h"
#include "shmem_device_sdma.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::sdma {

namespace {

constexpr uint64_t kSqeBytes = uint64_t{1} << 20;  // upstream's per-SQE block
constexpr uint64_t kUbBytes = 64;                  // upstream: at least 64 B of UB workspace
constexpr uint32_t kMaxQueues = 48;                // ACLSHMEM_MAX_AIV_PER_NPU: one queue per block

void check_ub(const char* api, const void* ub, uint64_t ub_bytes, CallSite site) {
  const AivCore& c = core();
  const Region* r = system().addresses().find(ub, std::max<uint64_t>(ub_bytes, 1));
  if (!r || r->kind != RegionKind::kUnifiedBuffer || r->core != c.core() || r->pe != c.pe())
    trap(fmt::format("{}: {}: the UB buffer at {} ({} bytes) is not inside this core's Unified Buffer", where(site),
                     api, address_name(ub), ub_bytes));
  if (ub_bytes < kUbBytes)
    trap(fmt::format("{}: {}: a UB buffer of {} bytes is under the 64 bytes the SQE submission needs", where(site), api,
                     ub_bytes));
}

uint32_t queue_of(const char* api, CallSite site) {
  const uint32_t q = block().block_idx;
  if (q >= kMaxQueues)
    trap(fmt::format("{}: {} from block {}: upstream has SDMA queues for blocks 0..{} only (the call would do nothing)",
                     where(site), api, q, kMaxQueues - 1));
  return q;
}

// The PE whose HBM holds [p, p+bytes); stops the kernel naming `what` when it is not HBM.
int pe_of(const char* api, const char* what, const void* p, uint64_t bytes, CallSite site) {
  const Region* r = system().addresses().find(p, std::max<uint64_t>(bytes, 1));
  if (!r || r->kind != RegionKind::kHbm)
    trap(fmt::format("{}: {}: the {} ({} bytes at {}) is not in device memory (HBM)", where(site), api, what, bytes,
                     address_name(p)));
  return r->pe;
}

// The core's work of one submission of `sqes` SQEs; returns when the doorbell reaches the engine.
Ps submit(uint64_t sqes) {
  AivCore& c = core();
  const AscendParams& p = system().params();
  c.advance(p.ns(p.aiv_dcci_ns));           // dcci of the queue's tail
  c.scalar_ops(2 + 24.0 * sqes);            // load the tail, fill the SQEs
  c.advance(p.ns(p.aiv_dcci_ns));           // write the SQEs back
  c.advance(2 * p.ns(p.aiv_mte_latency_ns));  // tail to the doorbell register and to the channel info
  c.sync();                                 // the engine serves doorbells in time order
  note_effect();
  return c.local_ps() + p.ns(p.udma_doorbell_ns);
}

}  // namespace

void post(const char* api, void* dst, const void* src, uint64_t bytes, int pe, bool put, const void* ub,
          uint64_t ub_bytes) {
  const CallSite site = SYMSIM_CALLER();
  check_ub(api, ub, ub_bytes, site);
  const uint32_t queue = queue_of(api, site);
  auto* to = static_cast<uint8_t*>(put ? mte::peer_at(api, dst, pe, site) : dst);
  const auto* from = static_cast<const uint8_t*>(put ? src : mte::peer_at(api, src, pe, site));
  const int to_pe = pe_of(api, "destination", to, bytes, site);
  const int from_pe = pe_of(api, "source", from, bytes, site);
  if (bytes == 0) return;
  const uint64_t sqes = (bytes + kSqeBytes - 1) / kSqeBytes;
  core().advance(system().params().ns(system().params().aiv_mte_latency_ns));  // the send flag word
  const Ps doorbell = submit(sqes);
  SdmaEngine& engine = system().sdma(core().pe());
  for (uint64_t off = 0; off < bytes; off += kSqeBytes) {
    const uint64_t n = std::min(kSqeBytes, bytes - off);
    engine.copy(queue, to + off, to_pe, from + off, from_pe, n, doorbell);
  }
}

void quiet(const char* api, const void* ub, uint64_t ub_bytes) {
  const CallSite site = SYMSIM_CALLER();
  check_ub(api, ub, ub_bytes, site);
  const uint32_t queue = queue_of(api, site);
  AivCore& c = core();
  const AscendParams& p = system().params();
  // A flag SQE behind the queue's SQEs; it lands once they are done. The core polls it with a
  // GM-to-GM copy (MTE2 then MTE3) and a dcci per round, and clears it with two more copies.
  SdmaEngine& engine = system().sdma(c.pe());
  const Ps flag_at = engine.record(queue, submit(1));
  const Ps round = 2 * p.ns(p.aiv_mte_latency_ns) + p.ns(p.aiv_dcci_ns);
  const Ps first_poll = c.local_ps() + round;
  const Ps seen = flag_at <= first_poll ? first_poll : first_poll + (flag_at - first_poll + round - 1) / round * round;
  c.wait_until(seen);
  c.advance(2 * p.ns(p.aiv_mte_latency_ns));
}

void notify_record(const char* api, const void* ub, uint64_t ub_bytes) {
  const CallSite site = SYMSIM_CALLER();
  check_ub(api, ub, ub_bytes, site);
  const uint32_t queue = queue_of(api, site);
  const Ps doorbell = submit(1);
  system().sdma(core().pe()).record(queue, doorbell);
}

void prefetch(const char* api, const void* src, uint64_t bytes, const void* ub, uint64_t ub_bytes) {
  const CallSite site = SYMSIM_CALLER();
  check_ub(api, ub, ub_bytes, site);
  const uint32_t queue = queue_of(api, site);
  const int pe = pe_of(api, "prefetched range", src, bytes, site);
  core().advance(system().params().ns(system().params().aiv_mte_latency_ns));  // the send flag word
  const Ps doorbell = submit(1);
  system().sdma(core().pe()).prefetch(queue, pe, bytes, doorbell);
}

}  // namespace symsim::shim::sdma
