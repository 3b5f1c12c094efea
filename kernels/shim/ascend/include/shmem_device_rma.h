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
#include "shmem_device_sync.h"
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
UdmaRoute udma_route(const char* api, int pe);

template <typename T>
SYMSIM_INLINE void put(const char* api, T* dst, T* src, uint64_t elems, int pe, bool blocking) {
  const UdmaRoute r = udma_route(api, pe);
  udma_post(symsim_udma::rma<T, PIPE_MTE3, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      api, symsim_udma::kWrite, src, dst, reinterpret_cast<T*>(r.ub), static_cast<uint32_t>(elems), pe, 0, -1,
      r.sync_id));
  if (blocking) udma_quiet(pe, 0, SYMSIM_UDMA_RELAY_BUILD);
}
template <typename T>
SYMSIM_INLINE void get(const char* api, T* dst, T* src, uint64_t elems, int pe, bool blocking) {
  const UdmaRoute r = udma_route(api, pe);
  udma_post(symsim_udma::rma<T, PIPE_MTE3, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      api, symsim_udma::kRead, dst, src, reinterpret_cast<T*>(r.ub), static_cast<uint32_t>(elems), pe, 0, -1,
      r.sync_id));
  if (blocking) udma_quiet(pe, 0, SYMSIM_UDMA_RELAY_BUILD);
}

// An element of BITS bits (aclshmem_put<BITS> / get<BITS>).
template <int BITS>
struct Bits {
  static_assert(BITS % 8 == 0 && BITS >= 8 && BITS <= 128, "aclshmem_put/get<BITS>: BITS is 8, 16, 32, 64 or 128");
  uint8_t bytes[BITS / 8];
};

template <typename P>
struct unsupported : std::false_type {};

// Drains every peer's requested completions (QP 0; relay builds: every relay path).
void quiet_all(const char* api);

}  // namespace symsim::shim::rma


// ---- untyped -----------------------------------------------------------------------------
ACLSHMEM_DEVICE void aclshmem_putmem(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {
  ::symsim::shim::rma::put("aclshmem_putmem", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe, true);
}
ACLSHMEM_DEVICE void aclshmem_putmem_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {
  ::symsim::shim::rma::put("aclshmem_putmem_nbi", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe,
                           false);
}
ACLSHMEM_DEVICE void aclshmem_getmem(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {
  ::symsim::shim::rma::get("aclshmem_getmem", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe, true);
}
ACLSHMEM_DEVICE void aclshmem_getmem_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {
  ::symsim::shim::rma::get("aclshmem_getmem_nbi", static_cast<char*>(dst), static_cast<char*>(src), elem_size, pe,
                           false);
}

// ---- typed: pointer and GlobalTensor forms; the non-contiguous forms do not compile ---------
#define SYMSIM_RMA_TYPED(NAME, TYPE, OP, BLOCKING, SUFFIX)                                                             \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(__gm__ TYPE* dst, __gm__ TYPE* src, uint32_t elem_size,          \
                                                      int32_t pe) {                                                    \
    ::symsim::shim::rma::OP("aclshmem_" #NAME "_" #OP #SUFFIX, dst, src, elem_size, pe, BLOCKING);                     \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(AscendC::GlobalTensor<TYPE> dst,                                 \
                                                      AscendC::GlobalTensor<TYPE> src, uint32_t elem_size, int pe) {   \
    ::symsim::shim::rma::OP("aclshmem_" #NAME "_" #OP #SUFFIX, dst.GetPhyAddr(), src.GetPhyAddr(), elem_size, pe,      \
                            BLOCKING);                                                                                 \
  }                                                                                                                    \
  template <typename P, typename = std::enable_if_t<std::is_same<P, non_contiguous_copy_param>::value>>                \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(__gm__ TYPE*, __gm__ TYPE*, const P&, int32_t) {                 \
    static_assert(::symsim::shim::rma::unsupported<P>::value,                                                          \
                  "aclshmem_" #NAME "_" #OP #SUFFIX " with non_contiguous_copy_param runs on the MTE transport, "      \
                  "which symsim does not model");                                                                      \
  }                                                                                                                    \
  template <typename P, typename = std::enable_if_t<std::is_same<P, non_contiguous_copy_param>::value>>                \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_##OP##SUFFIX(AscendC::GlobalTensor<TYPE>, AscendC::GlobalTensor<TYPE>,        \
                                                      const P&, int) {                                                 \
    static_assert(::symsim::shim::rma::unsupported<P>::value,                                                          \
                  "aclshmem_" #NAME "_" #OP #SUFFIX " with non_contiguous_copy_param runs on the MTE transport, "      \
                  "which symsim does not model");                                                                      \
  }
#define SYMSIM_RMA_TYPE(NAME, TYPE)                                                                                    \
  SYMSIM_RMA_TYPED(NAME, TYPE, put, true, )                                                                            \
  SYMSIM_RMA_TYPED(NAME, TYPE, put, false, _nbi)                                                                       \
  SYMSIM_RMA_TYPED(NAME, TYPE, get, true, )                                                                            \
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
#define SYMSIM_RMA_SIZED(BITS)                                                                                         \
  ACLSHMEM_DEVICE void aclshmem_put##BITS(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {        \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::put("aclshmem_put" #BITS, static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe, true);   \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_put##BITS##_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {  \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::put("aclshmem_put" #BITS "_nbi", static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe,   \
                             false);                                                                                   \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_get##BITS(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {        \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::get("aclshmem_get" #BITS, static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe, true);   \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_get##BITS##_nbi(__gm__ void* dst, __gm__ void* src, uint32_t elem_size, int32_t pe) {  \
    using E = ::symsim::shim::rma::Bits<BITS>;                                                                         \
    ::symsim::shim::rma::get("aclshmem_get" #BITS "_nbi", static_cast<E*>(dst), static_cast<E*>(src), elem_size, pe,   \
                             false);                                                                                   \
  }
SYMSIM_RMA_SIZED(8)
SYMSIM_RMA_SIZED(16)
SYMSIM_RMA_SIZED(32)
SYMSIM_RMA_SIZED(64)
SYMSIM_RMA_SIZED(128)
#undef SYMSIM_RMA_SIZED

// ---- put with signal: the data, then the signal word updated (SET / ADD) ----------------------
// On UDMA the data are put and quieted, then the word is updated by aclshmemx_signal_op, so the
// signal never passes the data; the _nbi forms do the same (upstream's WRITE_WITH_NOTIFY carries
// a 64-bit SET only).
#define SYMSIM_RMA_SIGNAL(NAME, TYPE)                                                                                  \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_put_signal(__gm__ TYPE* dst, __gm__ TYPE* src, size_t elem_size,              \
                                                    __gm__ int32_t* sig_addr, int32_t signal, int sig_op, int pe) {    \
    ::symsim::shim::rma::put("aclshmem_" #NAME "_put_signal", dst, src, elem_size, pe, true);                          \
    aclshmemx_signal_op(sig_addr, signal, sig_op, pe);                                                                 \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_put_signal_nbi(__gm__ TYPE* dst, __gm__ TYPE* src, size_t elem_size,          \
                                                        __gm__ int32_t* sig_addr, int32_t signal, int sig_op, int pe) { \
    ::symsim::shim::rma::put("aclshmem_" #NAME "_put_signal_nbi", dst, src, elem_size, pe, true);                      \
    aclshmemx_signal_op(sig_addr, signal, sig_op, pe);                                                                 \
  }
SYMSIM_RMA_SIGNAL(float, float)
SYMSIM_RMA_SIGNAL(double, double)
SYMSIM_RMA_SIGNAL(int8, int8_t)
SYMSIM_RMA_SIGNAL(int16, int16_t)
SYMSIM_RMA_SIGNAL(int32, int32_t)
SYMSIM_RMA_SIGNAL(int64, int64_t)
SYMSIM_RMA_SIGNAL(uint8, uint8_t)
SYMSIM_RMA_SIGNAL(uint16, uint16_t)
SYMSIM_RMA_SIGNAL(uint32, uint32_t)
SYMSIM_RMA_SIGNAL(uint64, uint64_t)
SYMSIM_RMA_SIGNAL(char, char)
#undef SYMSIM_RMA_SIGNAL
ACLSHMEM_DEVICE void aclshmem_putmem_signal(__gm__ void* dst, __gm__ void* src, size_t elem_size,
                                            __gm__ int32_t* sig_addr, int32_t signal, int sig_op, int pe) {
  aclshmem_char_put_signal(static_cast<char*>(dst), static_cast<char*>(src), elem_size, sig_addr, signal, sig_op, pe);
}
ACLSHMEM_DEVICE void aclshmem_putmem_signal_nbi(__gm__ void* dst, __gm__ void* src, size_t elem_size,
                                                __gm__ int32_t* sig_addr, int32_t signal, int sig_op, int pe) {
  aclshmem_char_put_signal_nbi(static_cast<char*>(dst), static_cast<char*>(src), elem_size, sig_addr, signal, sig_op,
                               pe);
}

// ---- memory ordering: every UDMA peer's requested completions drained --------------------------
// aclshmem_fence only has to order; here it completes, as aclshmem_quiet does.
ACLSHMEM_DEVICE void aclshmem_quiet() { ::symsim::shim::rma::quiet_all("aclshmem_quiet"); }
ACLSHMEM_DEVICE void aclshmem_fence() { ::symsim::shim::rma::quiet_all("aclshmem_fence"); }

// ---- the world team ------------------------------------------------------------------------
ACLSHMEM_DEVICE int aclshmem_team_my_pe(aclshmem_team_t team) {
  return team == ACLSHMEM_TEAM_WORLD ? aclshmem_my_pe() : -1;
}
ACLSHMEM_DEVICE int aclshmem_team_n_pes(aclshmem_team_t team) {
  return team == ACLSHMEM_TEAM_WORLD ? aclshmem_n_pes() : -1;
}
ACLSHMEM_DEVICE int aclshmem_team_translate_pe(aclshmem_team_t src_team, int src_pe, aclshmem_team_t dest_team) {
  return src_team == ACLSHMEM_TEAM_WORLD && dest_team == ACLSHMEM_TEAM_WORLD && src_pe >= 0 &&
                 src_pe < aclshmem_n_pes()
             ? src_pe
             : -1;
}
ACLSHMEM_DEVICE int aclshmem_team_pe_mapping(aclshmem_team_t team, int pe) {
  return aclshmem_team_translate_pe(team, pe, ACLSHMEM_TEAM_WORLD);
}

// aclshmemx_set_udma_config is one function for host programs and kernels (shmem_host.h).
