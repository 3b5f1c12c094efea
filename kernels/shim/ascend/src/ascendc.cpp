// AscendC intrinsics on the AIV core model.
#include <fmt/format.h>

#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "world.h"

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

void pipe_barrier(pipe_t pipe) { symsim::shim::core().pipe_barrier(pipe_of(pipe)); }
void set_flag(pipe_t src, pipe_t dst, int id) { symsim::shim::core().set_flag(pipe_of(src), pipe_of(dst), id); }
void wait_flag(pipe_t src, pipe_t dst, int id) { symsim::shim::core().wait_flag(pipe_of(src), pipe_of(dst), id); }
void dcci(const void* addr, cache_line_t) { symsim::shim::cache_clean_invalidate(addr, AscendC::CACHE_LINE_SIZE); }

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
  symsim::shim::core().set_flag(p.src, p.dst, id);
}
void wait_flag(HardEvent e, int id) {
  const EventPipes p = pipes_of(e);
  symsim::shim::core().wait_flag(p.src, p.dst, id);
}
void pipe_barrier(pipe_t p) { symsim::shim::core().pipe_barrier(pipe_of(p)); }
void scalar_access() { symsim::shim::core().scalar_ops(1); }

uint8_t* ub_allocate(uint64_t bytes) {
  symsim::shim::BlockContext& b = symsim::shim::block();
  const uint64_t start = (b.ub_used_bytes + 31) / 32 * 32;
  if (start + bytes > b.ub_bytes)
    symsim::shim::trap(fmt::format("Unified Buffer overflow in kernel {}: TPipe::InitBuffer of {} bytes at offset {} "
                                   "exceeds the {} bytes of UB",
                                   b.kernel, bytes, start, b.ub_bytes));
  b.ub_used_bytes = start + bytes;
  return b.ub + start;
}

void ub_release_all() {
  if (symsim::AivCore::current()) symsim::shim::block().ub_used_bytes = 0;
}

void copy_blocks(uint8_t* dst, uint64_t dst_stride_bytes, const uint8_t* src, uint64_t src_stride_bytes,
                 uint64_t block_bytes, uint64_t blocks) {
  symsim::AivCore& c = symsim::shim::core();
  const symsim::Region* d = symsim::shim::system().addresses().find(dst, 1);
  const symsim::Region* s = symsim::shim::system().addresses().find(src, 1);
  const bool dst_ub = d && d->kind == symsim::RegionKind::kUnifiedBuffer;
  const bool src_ub = s && s->kind == symsim::RegionKind::kUnifiedBuffer;
  AivPipe pipe = AivPipe::kVector;
  if (!src_ub && dst_ub) pipe = AivPipe::kMte2;
  if (src_ub && !dst_ub) pipe = AivPipe::kMte3;
  if (pipe == AivPipe::kMte2) c.observe();  // GM is read at issue: see what has landed
  if (dst_stride_bytes == block_bytes && src_stride_bytes == block_bytes) {
    c.copy(pipe, dst, src, block_bytes * blocks);
    return;
  }
  for (uint64_t i = 0; i < blocks; ++i) c.copy(pipe, dst + i * dst_stride_bytes, src + i * src_stride_bytes, block_bytes);
}

}  // namespace detail
}  // namespace AscendC

namespace symsim::shim {

void device_store(void* addr, uint64_t value, uint32_t bytes) {
  AivCore& c = core();
  const AscendParams& p = system().params();
  c.advance(ns_to_ps(p.aiv_st_dev_ns));
  const Region* r = system().addresses().find(addr, bytes);
  if (r && r->kind == RegionKind::kMmio) {
    r->mmio->mmio_store(reinterpret_cast<uintptr_t>(addr) - r->begin, value, c.local_ps());
    return;
  }
  std::memcpy(addr, &value, bytes);
}

uint64_t device_load(const void* addr, uint32_t bytes) {
  AivCore& c = core();
  c.observe();
  c.advance(ns_to_ps(system().params().aiv_ld_dev_ns));
  uint64_t v = 0;
  std::memcpy(&v, addr, bytes);
  return v;
}

void cache_clean_invalidate(const void* addr, uint64_t bytes) {
  AivCore& c = core();
  c.observe();
  const uint64_t lines = (bytes + 63) / 64;
  c.advance(static_cast<Ps>(lines) * ns_to_ps(system().params().aiv_dcci_ns));
}

}  // namespace symsim::shim
