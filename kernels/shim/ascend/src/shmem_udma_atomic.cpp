// CANN SHMEM's UDMA remote atomics on QP 0 of the target PE, as upstream builds them (all
// with a CQE, all with scalar stores): FAA and CAS are native engine operations whose old
// value returns to the QP's AMO buffer; a float add is a WRITE with the UDF flag and an fp32
// add reduce whose source is the value stored in the AMO buffer; set, swap, and, or and xor
// are emulated: READ the word into the AMO buffer, quiet, then CAS, repeated until the CAS
// finds the value it read.
#include <cstring>

#include <fmt/format.h>

#include "models/ascend/wqe_layout.h"
#include "kernel_operator.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

namespace {

constexpr uint8_t kAtomicFlags = udma_flags(ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT);

uint64_t width_mask(uint32_t width) { return width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1; }

// Reads the AMO buffer after the operation that filled it completed.
uint64_t read_amo(const QpView& v, uint32_t width) {
  auto* amo = reinterpret_cast<const uint8_t*>(v.sq->amo_addr);
  cache_clean_invalidate_at(amo, width, CallSite{});
  core().scalar_ops(1);
  uint64_t value = 0;
  std::memcpy(&value, amo, width);
  return value;
}

uint64_t remote_va(void* dst, int pe) { return reinterpret_cast<uint64_t>(symmetric_ptr(dst, pe)); }

uint64_t apply(AmoEmulated op, uint64_t old, uint64_t value) {
  switch (op) {
    case AmoEmulated::kSet:
    case AmoEmulated::kSwap: return value;
    case AmoEmulated::kAnd: return old & value;
    case AmoEmulated::kOr: return old | value;
    case AmoEmulated::kXor: return old ^ value;
  }
  return value;
}

}  // namespace

uint64_t udma_atomic_fetch_add(void* dst, uint64_t value, uint32_t width, int pe, bool fetch, bool relay_build,
                               const char* api) {
  return udma_atomic_fetch_add_at(dst, value, width, pe, fetch, relay_build, api, SYMSIM_CALLER());
}

uint64_t udma_atomic_fetch_add_at(void* dst, uint64_t value, uint32_t width, int pe, bool fetch, bool relay_build,
                                  const char* api, CallSite site) {
  const QpView v = qp_view(api, pe, -1, 0, relay_build, site);
  udma::Wqe w = base_wqe(v, udma::kFaa, kAtomicFlags, remote_va(dst, pe), v.sq->amo_addr, width);
  w.atomic_operand = value & width_mask(width);
  publish_wqe(v, w, false, nullptr, 0, site);
  if (!fetch) return 0;
  udma_quiet_at(pe, 0, relay_build, site);
  return read_amo(v, width);
}

uint64_t udma_atomic_compare_swap(void* dst, uint64_t cond, uint64_t value, uint32_t width, int pe,
                                  bool relay_build, const char* api) {
  return udma_atomic_compare_swap_at(dst, cond, value, width, pe, relay_build, api, SYMSIM_CALLER());
}

uint64_t udma_atomic_compare_swap_at(void* dst, uint64_t cond, uint64_t value, uint32_t width, int pe,
                                     bool relay_build, const char* api, CallSite site) {
  const QpView v = qp_view(api, pe, -1, 0, relay_build, site);
  udma::Wqe w = base_wqe(v, udma::kCas, kAtomicFlags, remote_va(dst, pe), v.sq->amo_addr, width);
  w.atomic_operand = value & width_mask(width);
  w.atomic_compare = cond & width_mask(width);
  publish_wqe(v, w, false, nullptr, 0, site);
  udma_quiet_at(pe, 0, relay_build, site);
  return read_amo(v, width);
}

void udma_atomic_add_fp32(void* dst, float value, int pe, bool relay_build, const char* api) {
  const CallSite site = SYMSIM_CALLER();
  const QpView v = qp_view(api, pe, -1, 0, relay_build, site);
  // The reduce's source is the AMO buffer: store the operand there and write it back.
  auto* amo = reinterpret_cast<uint8_t*>(v.sq->amo_addr);
  std::memcpy(amo, &value, sizeof(value));
  core().scalar_ops(1);
  cache_clean_invalidate_at(amo, sizeof(value), site);
  udma::Wqe w = base_wqe(v, udma::kWrite, kAtomicFlags | udma::flag::kUdf, remote_va(dst, pe), v.sq->amo_addr,
                         sizeof(value));
  w.reduce_opcode = udma::kReduceOpAdd;
  w.reduce_data_type = udma::kReduceTypeFp32;
  publish_wqe(v, w, false, nullptr, 0, site);
}

uint64_t udma_atomic_emulated(AmoEmulated op, void* dst, uint64_t value, uint32_t width, int pe, bool relay_build,
                              const char* api) {
  return udma_atomic_emulated_at(op, dst, value, width, pe, relay_build, api, SYMSIM_CALLER());
}

uint64_t udma_atomic_emulated_at(AmoEmulated op, void* dst, uint64_t value, uint32_t width, int pe,
                                 bool relay_build, const char* api, CallSite site) {
  const QpView v = qp_view(api, pe, -1, 0, relay_build, site);
  value &= width_mask(width);
  for (uint32_t attempt = 0; attempt < MAX_RETRY_TIMES; ++attempt) {
    const udma::Wqe read = base_wqe(v, udma::kRead, kAtomicFlags, remote_va(dst, pe), v.sq->amo_addr, width);
    publish_wqe(v, read, false, nullptr, 0, site);
    udma_quiet_at(pe, 0, relay_build, site);
    const uint64_t old = read_amo(v, width);
    const uint64_t desired = apply(op, old, value) & width_mask(width);
    if (udma_atomic_compare_swap_at(dst, old, desired, width, pe, relay_build, api, site) == old) return old;
  }
  trap(fmt::format("{}: {}: the CAS loop did not succeed in {} attempts", where(site), api, MAX_RETRY_TIMES));
}

}  // namespace symsim::shim
