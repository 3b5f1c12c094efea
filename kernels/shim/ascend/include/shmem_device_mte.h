// CANN SHMEM's MTE engine (shmem_device_mte.h, gm2gm and ub2gm): the AIV core's own copy engines
// move the bytes, with the peer's HBM addressed through aclshmem_ptr. A GM-to-GM call stages
// each chunk in the caller's UB buffer: MTE2 reads GM into UB, MTE3 writes UB out, the two pipes
// handed over with event `sync_id`; a copy whose GM side is another PE's HBM crosses the fabric
// (issue, wire time and arrival are the fabric's). The calls are non-blocking as upstream's:
// aclshmemx_mte_quiet waits for every copy the core has issued. The MTE atomics are not
// modelled and do not compile (they name themselves).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "shmem_device_udma.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim::mte {

// `rows` rows of `row_bytes` from `src` (rows `src_stride_bytes` apart) to `dst` (rows
// `dst_stride_bytes` apart) through the UB buffer [ub, ub + ub_bytes), as many rows at a time
// as fit. Stops the kernel naming `api` on a UB buffer too small for one row or outside the UB.
void copy_via_ub(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                 uint64_t row_bytes, uint64_t rows, void* ub, uint64_t ub_bytes, uint32_t sync_id);
// One UB <-> GM copy (ub2gm calls): MTE3 for UB -> GM, MTE2 for GM -> UB; strided by rows.
void copy_direct(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                 uint64_t row_bytes, uint64_t rows);
// Waits for every copy the calling core has issued on its MTE pipes.
void quiet();
// The PE's `addr` on `pe` (aclshmem_ptr); stops the kernel naming `api` when `pe` is out of range.
void* peer(const char* api, const void* addr, int pe);

template <typename... A>
struct unsupported : std::false_type {};

}  // namespace symsim::shim::mte

#define SYMSIM_MTE_ROWS(P, T) uint64_t{(P).repeat}, uint64_t{(P).length} * sizeof(T)

// ---- GM to GM through a UB buffer ----------------------------------------------------------
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                           uint32_t elem_size, int pe, uint32_t sync_id) {
  const uint64_t bytes = uint64_t{elem_size} * sizeof(T);
  ::symsim::shim::mte::copy_via_ub("aclshmemx_mte_put_nbi", ::symsim::shim::mte::peer("aclshmemx_mte_put_nbi", dst, pe),
                                   bytes, src, bytes, bytes, 1, buf, ub_size, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                           uint32_t elem_size, int pe, uint32_t sync_id) {
  const uint64_t bytes = uint64_t{elem_size} * sizeof(T);
  ::symsim::shim::mte::copy_via_ub("aclshmemx_mte_get_nbi", dst, bytes,
                                   ::symsim::shim::mte::peer("aclshmemx_mte_get_nbi", src, pe), bytes, bytes, 1, buf,
                                   ub_size, sync_id);
}
// Non-contiguous: `repeat` rows of `length` elements, rows src_ld / dst_ld elements apart.
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                           const non_contiguous_copy_param& p, int pe, uint32_t sync_id) {
  ::symsim::shim::mte::copy_via_ub("aclshmemx_mte_put_nbi", ::symsim::shim::mte::peer("aclshmemx_mte_put_nbi", dst, pe),
                                   uint64_t{p.dst_ld} * sizeof(T), src, uint64_t{p.src_ld} * sizeof(T),
                                   uint64_t{p.length} * sizeof(T), p.repeat, buf, ub_size, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                           const non_contiguous_copy_param& p, int pe, uint32_t sync_id) {
  ::symsim::shim::mte::copy_via_ub("aclshmemx_mte_get_nbi", dst, uint64_t{p.dst_ld} * sizeof(T),
                                   ::symsim::shim::mte::peer("aclshmemx_mte_get_nbi", src, pe),
                                   uint64_t{p.src_ld} * sizeof(T), uint64_t{p.length} * sizeof(T), p.repeat, buf,
                                   ub_size, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           AscendC::LocalTensor<T> buf, uint32_t elem_size, int pe, uint32_t sync_id) {
  aclshmemx_mte_put_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), buf.GetLength(), elem_size, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           AscendC::LocalTensor<T> buf, uint32_t elem_size, int pe, uint32_t sync_id) {
  aclshmemx_mte_get_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), buf.GetLength(), elem_size, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           AscendC::LocalTensor<T> buf, const non_contiguous_copy_param& p, int pe,
                                           uint32_t sync_id) {
  aclshmemx_mte_put_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), buf.GetLength(), p, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           AscendC::LocalTensor<T> buf, const non_contiguous_copy_param& p, int pe,
                                           uint32_t sync_id) {
  aclshmemx_mte_get_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), buf.GetLength(), p, pe, sync_id);
}

// ---- UB to GM and GM to UB (ub2gm): one copy on MTE3 / MTE2 ---------------------------------
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(__gm__ T* dst, __ubuf__ T* src, uint32_t elem_size, int pe, uint32_t) {
  const uint64_t bytes = uint64_t{elem_size} * sizeof(T);
  ::symsim::shim::mte::copy_direct("aclshmemx_mte_put_nbi", ::symsim::shim::mte::peer("aclshmemx_mte_put_nbi", dst, pe),
                                   bytes, src, bytes, bytes, 1);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(__ubuf__ T* dst, __gm__ T* src, uint32_t elem_size, int pe, uint32_t) {
  const uint64_t bytes = uint64_t{elem_size} * sizeof(T);
  ::symsim::shim::mte::copy_direct("aclshmemx_mte_get_nbi", dst, bytes,
                                   ::symsim::shim::mte::peer("aclshmemx_mte_get_nbi", src, pe), bytes, bytes, 1);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(__gm__ T* dst, __ubuf__ T* src, const non_contiguous_copy_param& p, int pe,
                                           uint32_t) {
  ::symsim::shim::mte::copy_direct("aclshmemx_mte_put_nbi", ::symsim::shim::mte::peer("aclshmemx_mte_put_nbi", dst, pe),
                                   uint64_t{p.dst_ld} * sizeof(T), src, uint64_t{p.src_ld} * sizeof(T),
                                   uint64_t{p.length} * sizeof(T), p.repeat);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(__ubuf__ T* dst, __gm__ T* src, const non_contiguous_copy_param& p, int pe,
                                           uint32_t) {
  ::symsim::shim::mte::copy_direct("aclshmemx_mte_get_nbi", dst, uint64_t{p.dst_ld} * sizeof(T),
                                   ::symsim::shim::mte::peer("aclshmemx_mte_get_nbi", src, pe),
                                   uint64_t{p.src_ld} * sizeof(T), uint64_t{p.length} * sizeof(T), p.repeat);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(AscendC::GlobalTensor<T> dst, AscendC::LocalTensor<T> src,
                                           uint32_t elem_size, int pe, uint32_t sync_id) {
  aclshmemx_mte_put_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), elem_size, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(AscendC::LocalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           uint32_t elem_size, int pe, uint32_t sync_id) {
  aclshmemx_mte_get_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), elem_size, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_put_nbi(AscendC::GlobalTensor<T> dst, AscendC::LocalTensor<T> src,
                                           const non_contiguous_copy_param& p, int pe, uint32_t sync_id) {
  aclshmemx_mte_put_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), p, pe, sync_id);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_get_nbi(AscendC::LocalTensor<T> dst, AscendC::GlobalTensor<T> src,
                                           const non_contiguous_copy_param& p, int pe, uint32_t sync_id) {
  aclshmemx_mte_get_nbi(dst.GetPhyAddr(), src.GetPhyAddr(), p, pe, sync_id);
}

ACLSHMEM_DEVICE void aclshmemx_mte_quiet() { ::symsim::shim::mte::quiet(); }
#define shmem_mte_put_mem_nbi aclshmemx_mte_put_nbi
#define shmem_mte_get_mem_nbi aclshmemx_mte_get_nbi

// ---- MTE atomics ---------------------------------------------------------------------------
// Add as upstream runs it on the 910 cores: the value is stored into the aclshmemx_set_mte_config
// UB buffer, handed to MTE3 (SetFlag / WaitFlag S_MTE3 on its event) and copied to the word on
// `pe` in the atomic-add mode (SetAtomicAdd<T>); the call returns once the copy is issued
// (aclshmemx_mte_quiet waits for it). The other MTE atomics use the Ascend 950's scalar GM
// atomics (AscendC::AtomicAdd / AtomicCas / AtomicExch; platform param aiv.gm_atomics), as
// upstream does; where the platform lacks them the kernel stops naming the call.
namespace symsim::shim::mte {
// The atomic add of the `width`-byte `value` (element type `type`) to `dst` (already on its PE).
void atomic_add_via_ub(const char* api, void* dst, const void* value, uint32_t width,
                       AscendC::detail::AtomicAddType type);
}  // namespace symsim::shim::mte

template <typename T>
ACLSHMEM_DEVICE T aclshmemx_mte_atomic_fetch(__gm__ T* src, int32_t pe) {
  return AscendC::AtomicAdd(static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_fetch", src, pe)),
                            static_cast<T>(0));
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_atomic_set(__gm__ T* dst, T value, int32_t pe) {
  AscendC::AtomicExch(static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_set", dst, pe)), value);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_mte_atomic_compare_swap(__gm__ T* dst, T cond, T value, int32_t pe) {
  return AscendC::AtomicCas(
      static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_compare_swap", dst, pe)), cond, value);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_mte_atomic_swap(__gm__ T* dst, T value, int32_t pe) {
  return AscendC::AtomicExch(static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_swap", dst, pe)),
                             value);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_atomic_inc(__gm__ T* dst, int32_t pe) {
  AscendC::AtomicAdd(static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_inc", dst, pe)),
                     static_cast<T>(1));
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_mte_atomic_add(__gm__ T* dst, T value, int32_t pe) {
  auto* word = static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_add", dst, pe));
  constexpr auto type = AscendC::detail::atomic_add_type<T>();
  if constexpr (type == AscendC::detail::AtomicAddType::kNone) {
    AscendC::AtomicAdd(word, value);  // uint32 / int64 / uint64: the Ascend 950's scalar atomic only
  } else {
    ::symsim::shim::mte::atomic_add_via_ub("aclshmemx_mte_atomic_add", word, &value, sizeof(T), type);
  }
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_mte_atomic_fetch_inc(__gm__ T* dst, int32_t pe) {
  return AscendC::AtomicAdd(
      static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_fetch_inc", dst, pe)), static_cast<T>(1));
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_mte_atomic_fetch_add(__gm__ T* dst, T value, int32_t pe) {
  return AscendC::AtomicAdd(
      static_cast<__gm__ T*>(::symsim::shim::mte::peer("aclshmemx_mte_atomic_fetch_add", dst, pe)), value);
}
