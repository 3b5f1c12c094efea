// The generic CANN SHMEM RMA calls upstream runs through the peer's address rather than a DMA
// transport: aclshmem_<T>_p / _g (a scalar store / load through aclshmem_ptr, cache line
// cleaned as upstream does) and the strided aclshmem_<T>_iput / iget and iput<BITS> /
// iget<BITS> (the MTE engine, staged in the UB buffer of aclshmemx_set_mte_config: default the
// first 16 KiB of UB, event 0), and the ub2gm forms of <T>_put_nbi / get_nbi with a UB side
// (LocalTensor here; the pointer forms in shmem_device_rma.h tell UB by its address). Types: those of upstream's ACLSHMEM_TYPE_FUNC, half and bfloat16
// included.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"
#include "shmem_device_mte.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim::rma {

// A scalar store of `bytes` at `value` into `dst` on `pe`, written back (dcci).
void scalar_put(const char* api, void* dst, const void* value, uint32_t bytes, int pe);
// The word `src` on `pe` after its line was invalidated (dcci), into `out`.
void scalar_get(const char* api, void* out, const void* src, uint32_t bytes, int pe);
// `rows` rows of `row_elems` elements of `elem_bytes`, rows `dst_stride` / `src_stride` elements
// apart, to (`put`) or from the PE `pe`, through the MTE staging buffer; complete on return.
void strided(const char* api, bool put, void* dst, const void* src, ptrdiff_t dst_stride, ptrdiff_t src_stride,
             uint32_t elem_bytes, size_t row_elems, size_t rows, int pe);
// The ub2gm forms: one MTE copy between the calling core's UB and the PE's GM, not waited for.
void ub_nbi(const char* api, bool put, void* dst, const void* src, uint64_t bytes, int pe);

}  // namespace symsim::shim::rma

#define SYMSIM_RMA_SCALAR(NAME, TYPE)                                                                         \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_p(__gm__ TYPE* dst, const TYPE value, int pe) {                       \
    ::symsim::shim::rma::scalar_put("aclshmem_" #NAME "_p", dst, &value, sizeof(TYPE), pe);                    \
  }                                                                                                            \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_g(__gm__ TYPE* src, int32_t pe) {                                     \
    TYPE v;                                                                                                    \
    ::symsim::shim::rma::scalar_get("aclshmem_" #NAME "_g", &v, src, sizeof(TYPE), pe);                        \
    return v;                                                                                                  \
  }                                                                                                            \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_put_nbi(AscendC::GlobalTensor<TYPE> dst, AscendC::LocalTensor<TYPE> src,     \
                                                 uint32_t elem_size, int32_t pe) {                             \
    ::symsim::shim::rma::ub_nbi("aclshmem_" #NAME "_put_nbi", true, dst.GetPhyAddr(), src.GetPhyAddr(),        \
                                uint64_t{elem_size} * sizeof(TYPE), pe);                                       \
  }                                                                                                            \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_get_nbi(AscendC::LocalTensor<TYPE> dst, AscendC::GlobalTensor<TYPE> src,     \
                                                 uint32_t elem_size, int pe) {                                 \
    ::symsim::shim::rma::ub_nbi("aclshmem_" #NAME "_get_nbi", false, dst.GetPhyAddr(), src.GetPhyAddr(),       \
                                uint64_t{elem_size} * sizeof(TYPE), pe);                                       \
  }                                                                                                            \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_iput(__gm__ TYPE* dest, __gm__ TYPE* source, ptrdiff_t dst, ptrdiff_t sst, \
                                              size_t nelems, int pe) {                                         \
    ::symsim::shim::rma::strided("aclshmem_" #NAME "_iput", true, dest, source, dst, sst, sizeof(TYPE), 1, nelems, pe); \
  }                                                                                                            \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_iget(__gm__ TYPE* dest, __gm__ TYPE* source, ptrdiff_t dst, ptrdiff_t sst, \
                                              size_t nelems, int pe) {                                         \
    ::symsim::shim::rma::strided("aclshmem_" #NAME "_iget", false, dest, source, dst, sst, sizeof(TYPE), 1, nelems, pe); \
  }
SYMSIM_RMA_SCALAR(half, half)
SYMSIM_RMA_SCALAR(float, float)
SYMSIM_RMA_SCALAR(double, double)
SYMSIM_RMA_SCALAR(int8, int8_t)
SYMSIM_RMA_SCALAR(int16, int16_t)
SYMSIM_RMA_SCALAR(int32, int32_t)
SYMSIM_RMA_SCALAR(int64, int64_t)
SYMSIM_RMA_SCALAR(uint8, uint8_t)
SYMSIM_RMA_SCALAR(uint16, uint16_t)
SYMSIM_RMA_SCALAR(uint32, uint32_t)
SYMSIM_RMA_SCALAR(uint64, uint64_t)
SYMSIM_RMA_SCALAR(char, char)
SYMSIM_RMA_SCALAR(bfloat16, bfloat16_t)
#undef SYMSIM_RMA_SCALAR

#define SYMSIM_RMA_STRIDED_BITS(BITS)                                                                                \
  ACLSHMEM_DEVICE void aclshmem_iput##BITS(__gm__ void* dest, __gm__ void* source, ptrdiff_t dst, ptrdiff_t sst,      \
                                           size_t nelems, int pe) {                                                  \
    ::symsim::shim::rma::strided("aclshmem_iput" #BITS, true, dest, source, dst, sst, BITS / 8, 1, nelems, pe);         \
  }                                                                                                                  \
  ACLSHMEM_DEVICE void aclshmem_iget##BITS(__gm__ void* dest, __gm__ void* source, ptrdiff_t dst, ptrdiff_t sst,      \
                                           size_t nelems, int pe) {                                                  \
    ::symsim::shim::rma::strided("aclshmem_iget" #BITS, false, dest, source, dst, sst, BITS / 8, 1, nelems, pe);        \
  }
SYMSIM_RMA_STRIDED_BITS(8)
SYMSIM_RMA_STRIDED_BITS(16)
SYMSIM_RMA_STRIDED_BITS(32)
SYMSIM_RMA_STRIDED_BITS(64)
SYMSIM_RMA_STRIDED_BITS(128)
#undef SYMSIM_RMA_STRIDED_BITS
