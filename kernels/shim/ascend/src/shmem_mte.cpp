// CANN SHMEM's MTE engine (shmem_device_mte.h): copies on the calling core's MTE pipes, staged
// in its Unified Buffer, to or from another PE's HBM across the fabric (ascendc.cpp routes a
// copy whose GM side is a peer's).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/memory/address_map.h"
#include "shmem_device_mte.h"
#include "symsim/udma_shim.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim::mte {

namespace {

constexpr uint64_t kUbBlockBytes = 32;     // UB rows are padded to 32 B
constexpr uint64_t kMaxRowsPerCopy = 4095;  // DataCopyPad's block count field

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// The staging buffer must lie inside the calling core's Unified Buffer.
void check_staging(const char* api, const void* ub, uint64_t ub_bytes, CallSite site) {
  const AivCore& c = core();
  const Region* r = system().addresses().find(ub, ub_bytes > 0 ? ub_bytes : 1);
  if (!r || r->kind != RegionKind::kUnifiedBuffer || r->core != c.core() || r->pe != c.pe())
    trap(fmt::format("{}: {}: the staging buffer at {} ({} bytes) is not inside this core's Unified Buffer", where(site),
                     api, address_name(ub), ub_bytes));
  if (ub_bytes < kUbBlockBytes)
    trap(fmt::format("{}: {}: a staging buffer of {} bytes holds no 32 B block", where(site), api, ub_bytes));
}

// GM -> UB (MTE2), hand-over, UB -> GM (MTE3), hand-back: one chunk of `rows` rows.
void stage_chunk(uint8_t* dst, uint64_t dst_stride, const uint8_t* src, uint64_t src_stride, uint64_t row_bytes,
                 uint64_t rows, uint8_t* ub, uint32_t sync_id, CallSite site) {
  const uint64_t ub_row = round_up(row_bytes, kUbBlockBytes);
  const int id = static_cast<int>(sync_id);
  copy_blocks_at(ub, ub_row, src, src_stride, row_bytes, rows, true, site);
  pipe_sync_at(PipeSyncRecord::kSetFlag, AivPipe::kMte2, AivPipe::kMte3, id, site);
  pipe_sync_at(PipeSyncRecord::kWaitFlag, AivPipe::kMte2, AivPipe::kMte3, id, site);
  copy_blocks_at(dst, dst_stride, ub, ub_row, row_bytes, rows, true, site);
  // The next chunk overwrites the staging buffer only once MTE3 has read it.
  pipe_sync_at(PipeSyncRecord::kSetFlag, AivPipe::kMte3, AivPipe::kMte2, id, site);
  pipe_sync_at(PipeSyncRecord::kWaitFlag, AivPipe::kMte3, AivPipe::kMte2, id, site);
}

}  // namespace

void* peer(const char* api, const void* addr, int pe) { return peer_at(api, addr, pe, SYMSIM_CALLER()); }

void* peer_at(const char* api, const void* addr, int pe, CallSite site) {
  if (pe < 0 || pe >= n_pes()) trap(fmt::format("{}: {} to PE {}, outside 0..{}", where(site), api, pe, n_pes() - 1));
  void* p = symmetric_ptr(addr, pe);
  if (!p) trap(fmt::format("{}: {}: {} is not in the symmetric heap", where(site), api, address_name(addr)));
  return p;
}

void copy_via_ub(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                 uint64_t row_bytes, uint64_t rows, void* ub, uint64_t ub_bytes, uint32_t sync_id) {
  copy_via_ub_at(api, dst, dst_stride_bytes, src, src_stride_bytes, row_bytes, rows, ub, ub_bytes, sync_id,
                 SYMSIM_CALLER());
}

void copy_via_ub_at(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                    uint64_t row_bytes, uint64_t rows, void* ub, uint64_t ub_bytes, uint32_t sync_id, CallSite site) {
  check_staging(api, ub, ub_bytes, site);
  if (rows == 0 || row_bytes == 0) return;
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  auto* staging = static_cast<uint8_t*>(ub);
  if (dst_stride_bytes == row_bytes && src_stride_bytes == row_bytes) {  // contiguous: one long row
    row_bytes *= rows;
    rows = 1;
    dst_stride_bytes = src_stride_bytes = row_bytes;
  }
  const uint64_t ub_row = round_up(row_bytes, kUbBlockBytes);
  if (ub_row <= ub_bytes) {
    const uint64_t per_chunk = std::min(ub_bytes / ub_row, kMaxRowsPerCopy);
    for (uint64_t r = 0; r < rows; r += per_chunk) {
      const uint64_t n = std::min(per_chunk, rows - r);
      stage_chunk(to + r * dst_stride_bytes, dst_stride_bytes, from + r * src_stride_bytes, src_stride_bytes,
                  row_bytes, n, staging, sync_id, site);
    }
    return;
  }
  // A row longer than the buffer: in pieces of whole 32 B blocks.
  const uint64_t piece = ub_bytes / kUbBlockBytes * kUbBlockBytes;
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t off = 0; off < row_bytes; off += piece) {
      const uint64_t len = std::min(piece, row_bytes - off);
      stage_chunk(to + r * dst_stride_bytes + off, len, from + r * src_stride_bytes + off, len, len, 1, staging,
                  sync_id, site);
    }
}

void copy_direct(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                 uint64_t row_bytes, uint64_t rows) {
  copy_direct_at(api, dst, dst_stride_bytes, src, src_stride_bytes, row_bytes, rows, SYMSIM_CALLER());
}

void copy_direct_at(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                    uint64_t row_bytes, uint64_t rows, CallSite site) {
  const Region* d = system().addresses().find(dst, 1);
  const Region* s = system().addresses().find(src, 1);
  const bool dst_ub = d && d->kind == RegionKind::kUnifiedBuffer;
  const bool src_ub = s && s->kind == RegionKind::kUnifiedBuffer;
  if (dst_ub == src_ub)
    trap(fmt::format("{}: {}: one side must be this core's Unified Buffer and the other GM ({} -> {})", where(site), api,
                     address_name(src), address_name(dst)));
  for (uint64_t r = 0; r < rows; r += kMaxRowsPerCopy) {
    const uint64_t n = std::min(kMaxRowsPerCopy, rows - r);
    copy_blocks_at(static_cast<uint8_t*>(dst) + r * dst_stride_bytes, dst_stride_bytes,
                   static_cast<const uint8_t*>(src) + r * src_stride_bytes, src_stride_bytes, row_bytes, n, true, site);
  }
}

void quiet() { pipe_sync_at(PipeSyncRecord::kBarrier, AivPipe::kAll, AivPipe::kAll, 0, SYMSIM_CALLER()); }

void atomic_add_via_ub(const char* api, void* dst, const void* value, uint32_t width,
                       AscendC::detail::AtomicAddType type) {
  const CallSite site = SYMSIM_CALLER();
  AivCore& c = core();
  c.scalar_ops(3);  // the MTE staging config from the device state
  const aclshmem_ub_config_t& cfg = world().hosts[c.pe()].mte_config;
  BlockContext& b = block();
  if (cfg.aclshmem_ub < 0 || static_cast<uint64_t>(cfg.aclshmem_ub) + width > b.ub_bytes || cfg.ub_size < width)
    trap(fmt::format("{}: {}: the MTE staging buffer (aclshmemx_set_mte_config: UB offset {}, {} bytes) does not hold "
                     "a {}-byte value inside the {} B Unified Buffer",
                     where(site), api, cfg.aclshmem_ub, cfg.ub_size, width, b.ub_bytes));
  uint8_t* ub = b.ub + cfg.aclshmem_ub;
  c.scalar_ops(1);  // LocalTensor::SetValue
  std::memcpy(ub, value, width);
  const int id = static_cast<int>(cfg.sync_id);
  pipe_sync_at(PipeSyncRecord::kSetFlag, AivPipe::kScalar, AivPipe::kMte3, id, site);
  pipe_sync_at(PipeSyncRecord::kWaitFlag, AivPipe::kScalar, AivPipe::kMte3, id, site);
  AscendC::detail::set_atomic_add(type);  // SetAtomicAdd<T>, the copy, SetAtomicNone
  copy_blocks_at(static_cast<uint8_t*>(dst), width, ub, width, width, 1, true, site);
  AscendC::detail::set_atomic_add(AscendC::detail::AtomicAddType::kNone);
}

}  // namespace symsim::shim::mte
