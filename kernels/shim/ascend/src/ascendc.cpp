// AscendC intrinsics on the AIV core model.
#include <fmt/format.h>

#include <typeinfo>

#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "kernels/shim/ascend/src/world.h"
#include "kernels/shim/ascend/src/wqe_posts.h"

namespace {

using symsim::AivPipe;

AivPipe pipe_of(pipe_t p) {
  switch (p) {
    case PIPE_S: return AivPipe::kScalar;
    case PIPE_V: return AivPipe::kVector;
    case PIPE_MTE2: return AivPipe::kMte2;
    case PIPE_MTE3: return AivPipe::kMte3;
    case PIPE_ALL: return AivPipe::kAll;
    default: return AivPipe::kVector;  // cube-side pipes do not exist on an AIV core
  }
}

struct EventPipes {
  AivPipe src, dst;
};

EventPipes pipes_of(AscendC::HardEvent e) {
  using AscendC::HardEvent;
  switch (e) {
    case HardEvent::MTE2_V: return {AivPipe::kMte2, AivPipe::kVector};
    case HardEvent::V_MTE2: return {AivPipe::kVector, AivPipe::kMte2};
    case HardEvent::MTE3_V: return {AivPipe::kMte3, AivPipe::kVector};
    case HardEvent::V_MTE3: return {AivPipe::kVector, AivPipe::kMte3};
    case HardEvent::V_V: return {AivPipe::kVector, AivPipe::kVector};
    case HardEvent::MTE3_MTE2: return {AivPipe::kMte3, AivPipe::kMte2};
    case HardEvent::MTE2_MTE3: return {AivPipe::kMte2, AivPipe::kMte3};
    case HardEvent::S_V: return {AivPipe::kScalar, AivPipe::kVector};
    case HardEvent::V_S: return {AivPipe::kVector, AivPipe::kScalar};
    case HardEvent::S_MTE2: return {AivPipe::kScalar, AivPipe::kMte2};
    case HardEvent::MTE2_S: return {AivPipe::kMte2, AivPipe::kScalar};
    case HardEvent::S_MTE3: return {AivPipe::kScalar, AivPipe::kMte3};
    case HardEvent::MTE3_S: return {AivPipe::kMte3, AivPipe::kScalar};
    default:
      symsim::shim::trap(fmt::format("HardEvent {} is not available on an AIV core", static_cast<int>(e)));
  }
}

}  // namespace

namespace symsim::shim {

// SetFlag / WaitFlag / PipeBarrier on the running core, reported to the checkers.
void pipe_sync_at(symsim::PipeSyncRecord::Kind kind, AivPipe src, AivPipe dst, int id, symsim::shim::CallSite site) {
  const symsim::shim::UncountedCall uncounted;
  symsim::AivCore& c = symsim::shim::core();
  symsim::PipeSyncRecord r;
  r.kind = kind;
  r.src_pipe = static_cast<int>(src);
  r.dst_pipe = static_cast<int>(dst);
  r.event_id = id;
  switch (kind) {
    case symsim::PipeSyncRecord::kSetFlag: c.set_flag(src, dst, id); break;
    case symsim::PipeSyncRecord::kWaitFlag: r.matched = c.wait_flag(src, dst, id); break;
    case symsim::PipeSyncRecord::kBarrier: c.pipe_barrier(dst); break;
  }
  r.pe = c.pe();
  r.core = c.core();
  r.t = c.local_ps();
  r.site = symsim::shim::site_ref(site);
  symsim::shim::system().hooks().emit<&symsim::AscendObserver::on_pipe_sync>(r);
}

}  // namespace symsim::shim

namespace {
using symsim::shim::pipe_sync_at;
}  // namespace

void pipe_barrier(pipe_t pipe) {
  pipe_sync_at(symsim::PipeSyncRecord::kBarrier, pipe_of(pipe), pipe_of(pipe), 0, SYMSIM_CALLER());
}
void set_flag(pipe_t src, pipe_t dst, int id) {
  pipe_sync_at(symsim::PipeSyncRecord::kSetFlag, pipe_of(src), pipe_of(dst), id, SYMSIM_CALLER());
}
void wait_flag(pipe_t src, pipe_t dst, int id) {
  pipe_sync_at(symsim::PipeSyncRecord::kWaitFlag, pipe_of(src), pipe_of(dst), id, SYMSIM_CALLER());
}
void dcci(const void* addr, cache_line_t) {
  symsim::shim::cache_clean_invalidate_at(addr, AscendC::CACHE_LINE_SIZE, SYMSIM_CALLER(), 8);
}

namespace AscendC {

int64_t GetBlockIdx() { return symsim::shim::block().block_idx; }
int64_t GetBlockNum() { return symsim::shim::block().block_num; }
int64_t GetSubBlockIdx() { return 0; }
int64_t GetTaskRation() { return 1; }
uint64_t GetSystemCycle() {
  symsim::AivCore& c = symsim::shim::core();
  c.scalar_ops(1);
  return c.local_ps() / 20000;  // 50 MHz: one tick per 20 ns
}

namespace detail {

void set_flag(HardEvent e, int id) {
  const EventPipes p = pipes_of(e);
  pipe_sync_at(symsim::PipeSyncRecord::kSetFlag, p.src, p.dst, id, SYMSIM_CALLER());
}
void wait_flag(HardEvent e, int id) {
  const EventPipes p = pipes_of(e);
  pipe_sync_at(symsim::PipeSyncRecord::kWaitFlag, p.src, p.dst, id, SYMSIM_CALLER());
}
void pipe_barrier(pipe_t p) {
  pipe_sync_at(symsim::PipeSyncRecord::kBarrier, pipe_of(p), pipe_of(p), 0, SYMSIM_CALLER());
}
void scalar_access() { symsim::shim::core().scalar_ops(1); }

uint8_t* ub_allocate(uint64_t bytes) {
  symsim::shim::BlockContext& b = symsim::shim::block();
  const uint64_t start = (b.ub_used_bytes + 31) / 32 * 32;
  if (start + bytes > b.ub_bytes)
    symsim::shim::trap(fmt::format("Unified Buffer overflow in kernel {}: TPipe::InitBuffer of {} bytes at offset {} "
                                   "exceeds the {} bytes of UB",
                                   b.kernel, bytes, start, b.ub_bytes));
  b.ub_used_bytes = start + bytes;
  symsim::AivCore& c = symsim::shim::core();
  symsim::shim::system().hooks().emit<&symsim::AscendObserver::on_ub_layout>(c.pe(), c.core(),
                                      static_cast<const uint8_t*>(b.ub), b.ub_used_bytes, b.ub_bytes);
  return b.ub + start;
}

void ub_release_all() {
  if (!symsim::AivCore::current()) return;
  symsim::shim::BlockContext& b = symsim::shim::block();
  b.ub_used_bytes = 0;
  symsim::AivCore& c = symsim::shim::core();
  symsim::shim::system().hooks().emit<&symsim::AscendObserver::on_ub_layout>(c.pe(), c.core(),
                                      static_cast<const uint8_t*>(b.ub), uint64_t{0}, b.ub_bytes);
}

void copy_blocks(uint8_t* dst, uint64_t dst_stride_bytes, const uint8_t* src, uint64_t src_stride_bytes,
                 uint64_t block_bytes, uint64_t blocks, bool byte_granular) {
  symsim::shim::copy_blocks_at(dst, dst_stride_bytes, src, src_stride_bytes, block_bytes, blocks, byte_granular,
                               SYMSIM_CALLER());
}

}  // namespace detail
}  // namespace AscendC

namespace {

// A copy that runs off device memory: the checkers see it, then the kernel stops. Out of line, so
// that its strings do not widen copy_blocks_at's stack frame (docs/performance.md, s28-ep).
[[gnu::cold, gnu::noinline]] void copy_outside_device_memory(symsim::CopyRecord& r, symsim::shim::CallSite site) {
  r.visible_ps = r.issue_ps;
  symsim::shim::system().hooks().emit<&symsim::AscendObserver::on_copy>(r);
  symsim::shim::trap(fmt::format("{}: a copy of {} bytes runs outside device memory (Unified Buffer or HBM region)",
                                 symsim::shim::where(site), r.bytes));
}

}  // namespace

void symsim::shim::copy_blocks_at(uint8_t* dst, uint64_t dst_stride_bytes, const uint8_t* src,
                                  uint64_t src_stride_bytes, uint64_t block_bytes, uint64_t blocks,
                                  bool byte_granular, CallSite site) {
  const symsim::shim::UncountedCall uncounted;  // a GM->UB copy in a loop may be a poll
  symsim::AivCore& c = symsim::shim::core();
  symsim::AscendSystem& sys = symsim::shim::system();
  const symsim::Region* d = sys.addresses().find(dst, 1);
  const symsim::Region* s = sys.addresses().find(src, 1);
  const bool dst_ub = d && d->kind == symsim::RegionKind::kUnifiedBuffer;
  const bool src_ub = s && s->kind == symsim::RegionKind::kUnifiedBuffer;
  AivPipe pipe = AivPipe::kVector;
  if (!src_ub && dst_ub) pipe = AivPipe::kMte2;
  if (src_ub && !dst_ub) pipe = AivPipe::kMte3;
  if (pipe == AivPipe::kMte2) {
    c.observe();  // GM is read at issue: see what has landed
    symsim::shim::note_poll(src, block_bytes, site);
  }
  if (!dst_ub) symsim::shim::note_effect();
  const bool contiguous = dst_stride_bytes == block_bytes && src_stride_bytes == block_bytes;
  const uint64_t pieces = contiguous ? 1 : blocks;
  const uint64_t piece_bytes = contiguous ? block_bytes * blocks : block_bytes;
  for (uint64_t i = 0; i < pieces; ++i) {
    uint8_t* to = dst + i * dst_stride_bytes;
    const uint8_t* from = src + i * src_stride_bytes;
    symsim::CopyRecord r;
    r.pe = c.pe();
    r.core = c.core();
    r.pipe = static_cast<int>(pipe);
    r.dst = to;
    r.src = from;
    r.dst_region = i == 0 ? d : sys.addresses().find(to, 1);
    r.src_region = i == 0 ? s : sys.addresses().find(from, 1);
    r.bytes = piece_bytes;
    r.byte_granular = byte_granular;
    r.issue_ps = std::max(c.local_ps(), c.pipe_free_ps(pipe));
    r.site = symsim::shim::site_ref(site);
    // A copy must stay inside device memory: one running off a buffer would write the
    // simulator's own memory. The checkers see it first, then the kernel stops.
    const bool inside = piece_bytes == 0 || (sys.addresses().find(to, piece_bytes) && sys.addresses().find(from, piece_bytes));
    if (!inside) copy_outside_device_memory(r, site);
    // A GM side in another PE's HBM (a peer's address from aclshmem_ptr): across the fabric.
    const int peer = pipe == AivPipe::kMte3 && d && d->pe != c.pe()   ? d->pe
                     : pipe == AivPipe::kMte2 && s && s->pe != c.pe() ? s->pe
                                                                      : -1;
    const auto atomic_add = pipe == AivPipe::kMte3 ? symsim::shim::atomic_add_mode() : nullptr;
    r.atomic_add = atomic_add != nullptr;
    if (atomic_add)  // SetAtomicAdd: the copy adds into GM
      r.visible_ps = c.copy_combine(to, from, piece_bytes, peer >= 0 ? &sys.fabric() : nullptr, peer, atomic_add);
    else
      r.visible_ps = peer >= 0 ? c.copy_across(pipe, to, from, piece_bytes, sys.fabric(), peer)
                               : c.copy(pipe, to, from, piece_bytes);
    sys.hooks().emit<&symsim::AscendObserver::on_copy>(r);
  }
}

namespace symsim::shim {

void device_store(void* addr, uint64_t value, uint32_t bytes) { device_store_at(addr, value, bytes, SYMSIM_CALLER()); }

void device_store_at(void* addr, uint64_t value, uint32_t bytes, CallSite site) {
  AivCore& c = core();
  World& w = world();
  AscendSystem& sys = *w.sys;  // not system(): core() counted this call (ExecContext::shim_calls)
  c.advance(c.st_dev_ps());
  note_effect(w, c);
  const Region* r = sys.addresses().find(addr, bytes);
  if (r && r->kind == RegionKind::kMmio) {
    const uint64_t offset = reinterpret_cast<uintptr_t>(addr) - r->begin;
    // A UDMA engine's doorbells (typeid, not dynamic_cast: a cast searches the hierarchy, about
    // 100 instructions per WQE; MmioPort has no subclasses).
    if (typeid(*r->mmio) == typeid(MmioPort)) {
      const UdmaEngine* engine = &static_cast<MmioPort*>(r->mmio)->engine();
      const auto index = offset / UdmaEngine::kDoorbellStride;
      if (index < engine->qps().size()) {
        const bool cq = offset % UdmaEngine::kDoorbellStride >= 8;
        if (!cq && sys.hooks().may_be_heard<&Observer::on_wqe_posted>())  // for the trace (wqe_posts.h)
          note_sq_doorbell_store(c, engine->qps()[index], static_cast<uint32_t>(value));
        sys.hooks().emit<&AscendObserver::on_doorbell_store>(engine->qps()[index].ref, cq,
                              static_cast<uint32_t>(value), c.core(), c.local_ps(), site_ref(site));
      }
    }
    r->mmio->mmio_store(offset, value, c.local_ps());
    return;
  }
  if (!r) trap(fmt::format("{}: st_dev to {:#x}, outside device memory", where(site), reinterpret_cast<uintptr_t>(addr)));
  c.before_store(static_cast<const uint8_t*>(addr), bytes);
  std::memcpy(addr, &value, bytes);
  note_store(addr, bytes, "st_dev", site);
}

uint64_t device_load(const void* addr, uint32_t bytes) {
  const CallSite site = SYMSIM_CALLER();
  const UncountedCall uncounted;
  AivCore& c = core();
  c.observe();
  note_poll(addr, bytes, site);
  system().hooks().emit<&AscendObserver::on_gm_observe>(c.pe(), c.core(), static_cast<const uint8_t*>(addr),
                        uint64_t{bytes}, c.local_ps(), site_ref(site));
  c.advance(ns_to_ps(system().params().aiv_ld_dev_ns));
  if (!system().addresses().find(addr, bytes))
    trap(fmt::format("{}: ld_dev from {:#x}, outside device memory", where(site), reinterpret_cast<uintptr_t>(addr)));
  uint64_t v = 0;
  std::memcpy(&v, addr, bytes);
  return v;
}

void cache_clean_invalidate(const void* addr, uint64_t bytes, uint64_t observed) {
  cache_clean_invalidate_at(addr, bytes, SYMSIM_CALLER(), observed);
}

void cache_clean_invalidate_at(const void* addr, uint64_t bytes, CallSite site, uint64_t observed) {
  const UncountedCall uncounted;
  AivCore& c = core();
  // A dcci that does not merely re-read an unchanged line may write back a scalar store, which
  // reached memory when the core made it (before this call's sync): cores asleep on the line
  // look again from then.
  if (!rereads_unchanged(addr, bytes)) note_store(addr, bytes, "scalar store written back by dcci", site);
  c.observe();
  note_poll(addr, observed ? observed : bytes, site, bytes);
  system().hooks().emit<&AscendObserver::on_gm_observe>(c.pe(), c.core(), static_cast<const uint8_t*>(addr),
                        observed ? observed : bytes, c.local_ps(), site_ref(site));
  const uint64_t lines = (bytes + 63) / 64;
  c.advance(static_cast<Ps>(lines) * c.dcci_ps());
}

}  // namespace symsim::shim
