// CANN SHMEM's SIMT device API (include/device_simt, namespace simt), called from the SIMT threads
// of a VF (AscendC::Simt::VF_CALL). As upstream, the threads move the data themselves with loads
// and stores through aclshmem_ptr: a plain call is one thread's copy of the whole range; an
// _block call is shared by every thread of the VF, and a _warp call by each warp (32 threads;
// upstream gives every warp the whole range), thread i taking elements i, i + group size, ...,
// with a VF barrier before and after (upstream's asc_syncthreads). Each element costs the thread
// a load and a store; a store into another PE's HBM becomes visible there when it has crossed the
// fabric. The UB-to-GM forms (a __ubuf__ side) are the same calls: symsim tells the sides apart
// by address. Upstream's BITS declarations name aclshmemx_putBITS_block / _warp (a missing ##);
// symsim provides the names its definitions and examples use (aclshmemx_put8_block, ...).
#pragma once
#include <cstddef>
#include <cstdint>

#include "symsim/element_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim::simt_rma {
enum class Group { kThread, kWarp, kBlock };
// The calling thread's part of a copy of `count` elements of `elem_bytes` between `dst` and `src`
// (`put`: dst is the symmetric address on `pe`; else src is).
void copy(const char* api, Group group, void* dst, const void* src, uint64_t elem_bytes, uint64_t count, int pe,
          bool put);
void* ptr(const void* p, int pe);
int my_pe();
int n_pes();
}  // namespace symsim::shim::simt_rma

namespace simt {

SYMSIM_INLINE void* aclshmem_ptr(void* ptr, int pe) { return ::symsim::shim::simt_rma::ptr(ptr, pe); }
SYMSIM_INLINE int aclshmem_my_pe(void) { return ::symsim::shim::simt_rma::my_pe(); }
SYMSIM_INLINE int aclshmem_n_pes(void) { return ::symsim::shim::simt_rma::n_pes(); }

#define SYMSIM_SIMT_COPY(API, GROUP, PUT, DST, SRC, ELEM, COUNT) \
  ::symsim::shim::simt_rma::copy(API, ::symsim::shim::simt_rma::Group::GROUP, DST, SRC, ELEM, COUNT, pe, PUT)

// The MTE engine forms (gm2gm and ub2gm).
#define SYMSIM_SIMT_MTE(NAME, GROUP, PUT)                                        \
  template <typename T>                                                          \
  SYMSIM_INLINE void NAME(T* dst, T* src, size_t elem_size, int pe) {            \
    SYMSIM_SIMT_COPY(#NAME, GROUP, PUT, dst, src, sizeof(T), elem_size);         \
  }
SYMSIM_SIMT_MTE(aclshmemx_mte_get_nbi, kThread, false)
SYMSIM_SIMT_MTE(aclshmemx_mte_get_nbi_block, kBlock, false)
SYMSIM_SIMT_MTE(aclshmemx_mte_get_nbi_warp, kWarp, false)
SYMSIM_SIMT_MTE(aclshmemx_mte_put_nbi, kThread, true)
SYMSIM_SIMT_MTE(aclshmemx_mte_put_nbi_block, kBlock, true)
SYMSIM_SIMT_MTE(aclshmemx_mte_put_nbi_warp, kWarp, true)
#undef SYMSIM_SIMT_MTE

// Typed, sized and byte forms: put / get, blocking and _nbi (the same here: the stores are done
// when the call returns), each for a thread, a block and a warp.
#define SYMSIM_SIMT_RMA_FORMS(PREFIX_PLAIN, PREFIX_X, SUFFIX, PTR, ELEM)                                            \
  SYMSIM_INLINE void PREFIX_PLAIN##_put##SUFFIX(PTR dst, PTR src, size_t n, int32_t pe) {                         \
    SYMSIM_SIMT_COPY(#PREFIX_PLAIN "_put" #SUFFIX, kThread, true, dst, src, ELEM, n);                             \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_put##SUFFIX##_block(PTR dst, PTR src, size_t n, int32_t pe) {                     \
    SYMSIM_SIMT_COPY(#PREFIX_X "_put" #SUFFIX "_block", kBlock, true, dst, src, ELEM, n);                         \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_put##SUFFIX##_warp(PTR dst, PTR src, size_t n, int32_t pe) {                      \
    SYMSIM_SIMT_COPY(#PREFIX_X "_put" #SUFFIX "_warp", kWarp, true, dst, src, ELEM, n);                           \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_PLAIN##_put##SUFFIX##_nbi(PTR dst, PTR src, size_t n, int32_t pe) {                   \
    SYMSIM_SIMT_COPY(#PREFIX_PLAIN "_put" #SUFFIX "_nbi", kThread, true, dst, src, ELEM, n);                      \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_put##SUFFIX##_nbi_block(PTR dst, PTR src, size_t n, int32_t pe) {                 \
    SYMSIM_SIMT_COPY(#PREFIX_X "_put" #SUFFIX "_nbi_block", kBlock, true, dst, src, ELEM, n);                     \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_put##SUFFIX##_nbi_warp(PTR dst, PTR src, size_t n, int32_t pe) {                  \
    SYMSIM_SIMT_COPY(#PREFIX_X "_put" #SUFFIX "_nbi_warp", kWarp, true, dst, src, ELEM, n);                       \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_PLAIN##_get##SUFFIX(PTR dst, PTR src, size_t n, int32_t pe) {                         \
    SYMSIM_SIMT_COPY(#PREFIX_PLAIN "_get" #SUFFIX, kThread, false, dst, src, ELEM, n);                            \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_get##SUFFIX##_block(PTR dst, PTR src, size_t n, int32_t pe) {                     \
    SYMSIM_SIMT_COPY(#PREFIX_X "_get" #SUFFIX "_block", kBlock, false, dst, src, ELEM, n);                        \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_get##SUFFIX##_warp(PTR dst, PTR src, size_t n, int32_t pe) {                      \
    SYMSIM_SIMT_COPY(#PREFIX_X "_get" #SUFFIX "_warp", kWarp, false, dst, src, ELEM, n);                          \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_PLAIN##_get##SUFFIX##_nbi(PTR dst, PTR src, size_t n, int32_t pe) {                   \
    SYMSIM_SIMT_COPY(#PREFIX_PLAIN "_get" #SUFFIX "_nbi", kThread, false, dst, src, ELEM, n);                     \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_get##SUFFIX##_nbi_block(PTR dst, PTR src, size_t n, int32_t pe) {                 \
    SYMSIM_SIMT_COPY(#PREFIX_X "_get" #SUFFIX "_nbi_block", kBlock, false, dst, src, ELEM, n);                    \
  }                                                                                                               \
  SYMSIM_INLINE void PREFIX_X##_get##SUFFIX##_nbi_warp(PTR dst, PTR src, size_t n, int32_t pe) {                  \
    SYMSIM_SIMT_COPY(#PREFIX_X "_get" #SUFFIX "_nbi_warp", kWarp, false, dst, src, ELEM, n);                      \
  }

#define SYMSIM_SIMT_TYPED(NAME, TYPE)                                                             \
  SYMSIM_SIMT_RMA_FORMS(aclshmem_##NAME, aclshmemx_##NAME, , TYPE*, sizeof(TYPE))                \
  SYMSIM_INLINE void aclshmem_##NAME##_p(TYPE* dst, const TYPE value, int pe) {                  \
    SYMSIM_SIMT_COPY("aclshmem_" #NAME "_p", kThread, true, dst, &value, sizeof(TYPE), 1);      \
  }                                                                                               \
  SYMSIM_INLINE TYPE aclshmem_##NAME##_g(TYPE* src, int32_t pe) {                                \
    TYPE v;                                                                                       \
    SYMSIM_SIMT_COPY("aclshmem_" #NAME "_g", kThread, false, &v, src, sizeof(TYPE), 1);         \
    return v;                                                                                     \
  }
SYMSIM_SIMT_TYPED(half, half)
SYMSIM_SIMT_TYPED(float, float)
SYMSIM_SIMT_TYPED(int8, int8_t)
SYMSIM_SIMT_TYPED(int16, int16_t)
SYMSIM_SIMT_TYPED(int32, int32_t)
SYMSIM_SIMT_TYPED(int64, int64_t)
SYMSIM_SIMT_TYPED(uint8, uint8_t)
SYMSIM_SIMT_TYPED(uint16, uint16_t)
SYMSIM_SIMT_TYPED(uint32, uint32_t)
SYMSIM_SIMT_TYPED(uint64, uint64_t)
SYMSIM_SIMT_TYPED(char, signed char)
SYMSIM_SIMT_TYPED(char, unsigned char)
SYMSIM_SIMT_TYPED(bfloat16, bfloat16_t)
#undef SYMSIM_SIMT_TYPED
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, 8, void*, 1)
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, 16, void*, 2)
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, 32, void*, 4)
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, 64, void*, 8)
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, 128, void*, 16)
SYMSIM_SIMT_RMA_FORMS(aclshmem, aclshmemx, mem, void*, 1)
#undef SYMSIM_SIMT_RMA_FORMS
#undef SYMSIM_SIMT_COPY

}  // namespace simt
