// The generic CANN SHMEM RMA calls (shmem_device_rma.h) on the transport configured to each PE.
// symsim models the UDMA transport, which every peer is reached by: a put or get becomes a UDMA
// WQE staged in the UB buffer of aclshmemx_set_udma_config (default: 128 B at UB offset 189 KiB,
// event 0, as upstream), and the blocking forms quiet the peer afterwards. Calls upstream runs
// on a transport symsim does not model (the non-contiguous "detailed" overloads, MTE; a PE's own
// memory, MTE) do not compile, and the error names them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "shmem_device_udma.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim::rma {

// Where the generic call `api` stages its WQE on the calling core (the configured UDMA UB
// buffer) and with which event; stops the kernel naming `api` when `pe` is not reached over
// UDMA (the calling PE itself: upstream takes MTE there).
struct UdmaRoute {
  uint8_t* ub;
  uint32_t sync_id;
};
UdmaRoute udma_route(const char* api, int pe, CallSite site);

template <typename T>
void put(const char* api, T* dst, T* src, uint64_t elems, int pe, bool blocking, CallSite site) {
  const UdmaRoute r = udma_route(api, pe, site);
  udma_post(symsim_udma::rma<T, PIPE_MTE3, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      api, symsim_udma::kWrite, src, dst, reinterpret_cast<T*>(r.ub), static_cast<uint32_t>(elems), pe, 0, -1,
      r.sync_id, site));
  if (blocking) udma_quiet(pe, 0, SYMSIM_UDMA_RELAY_BUILD, site);
}
template <typename T>
void get(const char* api, T* dst, T* src, uint64_t elems, int pe, bool blocking, CallSite site) {
  const UdmaRoute r = udma_route(api, pe, site);
  udma_post(symsim_udma::rma<T, PIPE_MTE3, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      api, symsim_udma::kRead, dst, src, reinterpret_cast<T*>(r.ub), static_cast<uint32_t>(elems), pe, 0, -1,
      r.sync_id, site));
  if (blocking) udma_quiet(pe, 0, SYMSIM_UDMA_RELAY_BUILD, site);
}

// An element of BITS bits (aclshmem_put<BITS> / get<BITS>).
template <int BITS>
struct Bits {
  static_assert(BITS % 8 == 0 && BITS >= 8 && BITS <= 128, "aclshmem_put/get<BITS>: BITS is 8, 16, 32, 64 or 128");
  uint8_t bytes[BITS / 8];
};

template <typename P>
struct unsupported : std::false_type {};

}  // namespace symsim::shim::rma

#define SYMSIM_RMA_HERE ::symsim::shim::CallSite site = ::symsim::shim::CallSite::here()

// ---- untyped -----------------------------------------------------------------------------
ACLSHMEM_DEVICE void aclshmem_putmem(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,
                                     SYMSIM_RMA_HERE) {
  ::symsim::shim::rma::put("aclshmem_putmem", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe, true,
                           site);
}
ACLSHMEM_DEVICE void aclshmem_putmem_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,
                                         SYMSIM_RMA_HERE) {
  ::symsim::shim::rma::put("aclshmem_putmem_nbi", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe,
                           false, site);
}
ACLSHMEM_DEVICE void aclshmem_getmem(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,
                                     SYMSIM_RMA_HERE) {
  ::symsim::shim::rma::get("aclshmem_getmem", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe, true,
                           site);
}
ACLSHMEM_DEVICE void aclshmem_getmem_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,
                                         SYMSIM_RMA_HERE) {
  ::symsim::shim::rma::get("aclshmem_getmem_nbi", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe,
                           false, site);
}

// ---- typed: pointer and GlobalTensor forms; the non-contiguous forms do not compile ---------
#define SYMSIM_RMA_TYPED(NAME, TYPE, OP, BLOCKING, SUFFIX)                                                            \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(__gm__ TYPE* dst, __gm__ TYPE* src, uint32_t elem_size,         \
                                                      int32_t pe, SYMSIM_RMA_HERE) {                                   \
    ::symsim::shim::rma::OP("aclshmem_" #NAME "_" #OP #SUFFIX, dst, src, elem_size, pe, BLOCKING, site);             \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(AscendC::GlobalTensor<TYPE> dst,                                 \
                                                      AscendC::GlobalTensor<TYPE> src, uint32_t elem_size, int pe,     \
                                                      SYMSIM_RMA_HERE) {                                               \
    ::symsim::shim::rma::OP("aclshmem_" #NAME "_" #OP #SUFFIX, dst.GetPhyAddr(), src.GetPhyAddr(), elem_size, pe,     \
                            BLOCKING, site);                                                                           \
  }                                                                                                                    \
  template <typename P, typename = std::enable_if_t<std::is_same<P, non_contiguous_copy_param>::value>>               \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(__gm__ TYPE*, __gm__ TYPE*, const P&, int32_t) {                 \
    static_assert(::symsim::shim::rma::unsupported<P>::value,                                                          \
                  "aclshmem_" #NAME "_" #OP #SUFFIX " with non_contiguous_copy_param runs on the MTE transport, "      \
                  "which symsim does not model");                                                                      \
  }                                                                                                                    \
  template <typename P, typename = std::enable_if_t<std::is_same<P, non_contiguous_copy_param>::value>>               \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(AscendC::GlobalTensor<TYPE>, AscendC::GlobalTensor<TYPE>,        \
                                                      const P&, int) {                                                 \
    static_assert(::symsim::shim::rma::unsupported<P>::value,                                                          \
                  "aclshmem_" #NAME "_" #OP #SUFFIX " with non_contiguous_copy_param runs on the MTE transport, "      \
                  "which symsim does not model");                                                                      \
  }
#define SYMSIM_RMA_TYPE(NAME, TYPE)                  \
  SYMSIM_RMA_TYPED(NAME, TYPE, put, true, )          \
  SYMSIM_RMA_TYPED(NAME, TYPE, put, false, _nbi)     \
  SYMSIM_RMA_TYPED(NAME, TYPE, get, true, )          \
  SYMSIM_RMA_TYPED(NAME, TYPE, get, false, _nbi)
SYMSIM_RMA_TYPE(float, float)
SYMSIM_RMA_TYPE(double, double)
SYMSIM_RMA_TYPE(int8, int8_t)
SYMSIM_RMA_TYPE(int16, int16_t)
SYMSIM_RMA_TYPE(int32, int32_t)
SYMSIM_RMA_TYPE(int64, int64_t)
SYMSIM_RMA_TYPE(uint8, uint8_t)
SYMSIM_RMA_TYPE(uint16, uint16_t)
SYMSIM_RMA_TYPE(uint32, uint32_t)
SYMSIM_RMA_TYPE(uint64, uint64_t)
SYMSIM_RMA_TYPE(char, char)
#undef SYMSIM_RMA_TYPE
#undef SYMSIM_RMA_TYPED

// ---- sized: elem_size elements of BITS bits ---------------------------------------------------
#define SYMSIM_RMA_SIZED(BITS)                                                                                        \
  ACLSHMEM_DEVICE void aclshmem_put##BITS(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,          \
                                          SYMSIM_RMA_HERE) {                                                           \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::put("aclshmem_put" #BITS, static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe, true,   \
                             site);                                                                                    \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_put##BITS##_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,    \
                                                SYMSIM_RMA_HERE) {                                                     \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::put("aclshmem_put" #BITS "_nbi", static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe,  \
                             false, site);                                                                             \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_get##BITS(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,          \
                                          SYMSIM_RMA_HERE) {                                                           \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::get("aclshmem_get" #BITS, static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe, true,   \
                             site);                                                                                    \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_get##BITS##_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe,    \
                                                SYMSIM_RMA_HERE) {                                                     \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::get("aclshmem_get" #BITS "_nbi", static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe,  \
                             false, site);                                                                             \
  }
SYMSIM_RMA_SIZED(8)
SYMSIM_RMA_SIZED(16)
SYMSIM_RMA_SIZED(32)
SYMSIM_RMA_SIZED(64)
SYMSIM_RMA_SIZED(128)
#undef SYMSIM_RMA_SIZED

// aclshmemx_set_udma_config is one function for host programs and kernels (shmem_host.h).
#undef SYMSIM_RMA_HERE
