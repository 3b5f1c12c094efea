// The generic CANN SHMEM atomics (shmem_device_amo.h), routed by transport as upstream routes
// them: a PE's own memory is reached by MTE (shmem_device_mte.h's aclshmemx_mte_atomic_*: the
// add through an MTE3 atomic-add copy, the rest through the Ascend 950's scalar GM atomics),
// every other PE by UDMA (the aclshmemx_udma_atomic_* call upstream takes there: native FAA /
// CAS, float add as a WRITE with reduce, the rest emulated with READ + CAS). The int8 / int16 /
// half / bfloat16 adds are MTE-only upstream: to another PE they stop the kernel naming the call,
// as upstream's debug build aborts; so do the bitwise ones on the calling PE (ROCE / UDMA only).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "shmem_device_mte.h"
#include "shmem_device_udma.h"
#include "symsim/shim_core.h"

namespace symsim::shim::amo {

// Stops the kernel naming `api` when `pe` is out of range; true when `pe` is the calling PE
// (upstream's MTE transport), false for a peer reached over UDMA.
bool own_pe(const char* api, int pe);
// Stops the kernel: `api` has no path upstream to `pe` (`why`).
[[noreturn]] void no_path(const char* api, int pe, const char* why);

template <typename... T>
struct unsupported : std::false_type {};

template <typename To, typename From>
To bits(From v) {
  static_assert(sizeof(To) == sizeof(From), "same width");
  To t;
  std::memcpy(&t, &v, sizeof(t));
  return t;
}

}  // namespace symsim::shim::amo

// UDMA-only calls: the calling PE has no path.
#define SYMSIM_AMO_CHECK(API) \
  if (::symsim::shim::amo::own_pe(API, pe)) ::symsim::shim::amo::no_path(API, pe, "upstream runs it on the ROCE and UDMA paths only")
// MTE for the calling PE, else UDMA.
#define SYMSIM_AMO_ROUTE(API, MTE_CALL) \
  if (::symsim::shim::amo::own_pe(API, pe)) return MTE_CALL

// add / inc without a result: 32- and 64-bit integers and float.
#define SYMSIM_AMO_ADD(NAME, TYPE)                                                                                  \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_add(__gm__ TYPE* dst, TYPE value, int32_t pe) {                     \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_add", aclshmemx_mte_atomic_add<TYPE>(dst, value, pe));               \
    aclshmemx_udma_atomic_add<TYPE>(dst, value, pe);                                                                \
  }
SYMSIM_AMO_ADD(int32, int32_t)
SYMSIM_AMO_ADD(uint32, uint32_t)
SYMSIM_AMO_ADD(int64, int64_t)
SYMSIM_AMO_ADD(uint64, uint64_t)
SYMSIM_AMO_ADD(float, float)
#undef SYMSIM_AMO_ADD
#define SYMSIM_AMO_MTE_ONLY_ADD(NAME, TYPE)                                                                         \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_add(__gm__ TYPE* dst, TYPE value, int32_t pe) {                     \
    if (!::symsim::shim::amo::own_pe("aclshmem_" #NAME "_atomic_add", pe))                                          \
      ::symsim::shim::amo::no_path("aclshmem_" #NAME "_atomic_add", pe,                                            \
                                   "atomic_add for int8/int16/bfloat16/half is MTE-only upstream");                \
    aclshmemx_mte_atomic_add<TYPE>(dst, value, pe);                                                                 \
  }
SYMSIM_AMO_MTE_ONLY_ADD(int8, int8_t)
SYMSIM_AMO_MTE_ONLY_ADD(int16, int16_t)
SYMSIM_AMO_MTE_ONLY_ADD(half, half)
SYMSIM_AMO_MTE_ONLY_ADD(bfloat16, bfloat16_t)
#undef SYMSIM_AMO_MTE_ONLY_ADD

// The integer family: fetch-add, inc, fetch-inc, fetch, the bitwise ones, compare-swap.
#define SYMSIM_AMO_INT(NAME, TYPE)                                                                                  \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch_add(__gm__ TYPE* dest, TYPE value, int32_t pe) {              \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_fetch_add", aclshmemx_mte_atomic_fetch_add<TYPE>(dest, value, pe));                                                        \
    return aclshmemx_udma_atomic_fetch_add<TYPE>(dest, value, pe);                                                  \
  }                                                                                                                 \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_inc(__gm__ TYPE* dst, int32_t pe) {                                 \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_inc", aclshmemx_mte_atomic_inc<TYPE>(dst, pe));                                                              \
    aclshmemx_udma_atomic_inc<TYPE>(dst, pe);                                                                       \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch_inc(__gm__ TYPE* dest, int32_t pe) {                          \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_fetch_inc", aclshmemx_mte_atomic_fetch_inc<TYPE>(dest, pe));                                                        \
    return aclshmemx_udma_atomic_fetch_inc<TYPE>(dest, pe);                                                         \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch(__gm__ const TYPE* source, int32_t pe) {                      \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_fetch", aclshmemx_mte_atomic_fetch<TYPE>(const_cast<TYPE*>(source), pe));                                                            \
    return aclshmemx_udma_atomic_fetch<TYPE>(const_cast<TYPE*>(source), pe);                                        \
  }                                                                                                                 \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_and(__gm__ TYPE* dest, TYPE value, int32_t pe) {                    \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_and");                                                              \
    aclshmemx_udma_atomic_and<TYPE>(dest, value, pe);                                                               \
  }                                                                                                                 \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_or(__gm__ TYPE* dest, TYPE value, int32_t pe) {                     \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_or");                                                               \
    aclshmemx_udma_atomic_or<TYPE>(dest, value, pe);                                                                \
  }                                                                                                                 \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_xor(__gm__ TYPE* dest, TYPE value, int32_t pe) {                    \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_xor");                                                              \
    aclshmemx_udma_atomic_xor<TYPE>(dest, value, pe);                                                               \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch_and(__gm__ TYPE* dest, TYPE value, int32_t pe) {              \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_fetch_and");                                                        \
    return aclshmemx_udma_atomic_fetch_and<TYPE>(dest, value, pe);                                                  \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch_or(__gm__ TYPE* dest, TYPE value, int32_t pe) {               \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_fetch_or");                                                         \
    return aclshmemx_udma_atomic_fetch_or<TYPE>(dest, value, pe);                                                   \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_fetch_xor(__gm__ TYPE* dest, TYPE value, int32_t pe) {              \
    SYMSIM_AMO_CHECK("aclshmem_" #NAME "_atomic_fetch_xor");                                                        \
    return aclshmemx_udma_atomic_fetch_xor<TYPE>(dest, value, pe);                                                  \
  }                                                                                                                 \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_atomic_set(__gm__ TYPE* dest, TYPE value, int32_t pe) {                    \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_set", aclshmemx_mte_atomic_set<TYPE>(dest, value, pe));                                                              \
    aclshmemx_udma_atomic_set<TYPE>(dest, value, pe);                                                               \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_swap(__gm__ TYPE* dest, TYPE value, int32_t pe) {                   \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_swap", aclshmemx_mte_atomic_swap<TYPE>(dest, value, pe));                                                             \
    return aclshmemx_udma_atomic_swap<TYPE>(dest, value, pe);                                                       \
  }                                                                                                                 \
  ACLSHMEM_DEVICE TYPE aclshmem_##NAME##_atomic_compare_swap(__gm__ TYPE* dest, TYPE cond, TYPE value, int32_t pe) { \
    SYMSIM_AMO_ROUTE("aclshmem_" #NAME "_atomic_compare_swap", aclshmemx_mte_atomic_compare_swap<TYPE>(dest, cond, value, pe));                                                     \
    return aclshmemx_udma_atomic_compare_swap<TYPE>(dest, cond, value, pe);                                         \
  }
SYMSIM_AMO_INT(int32, int32_t)
SYMSIM_AMO_INT(uint32, uint32_t)
SYMSIM_AMO_INT(int64, int64_t)
SYMSIM_AMO_INT(uint64, uint64_t)
#undef SYMSIM_AMO_INT

// float set / swap go as their 32-bit pattern, as upstream casts them.
ACLSHMEM_DEVICE void aclshmem_float_atomic_set(__gm__ float* dest, float value, int32_t pe) {
  SYMSIM_AMO_ROUTE("aclshmem_float_atomic_set",
                   aclshmemx_mte_atomic_set<uint32_t>(reinterpret_cast<uint32_t*>(dest),
                                                      ::symsim::shim::amo::bits<uint32_t>(value), pe));
  aclshmemx_udma_atomic_set<uint32_t>(reinterpret_cast<uint32_t*>(dest),
                                      ::symsim::shim::amo::bits<uint32_t>(value), pe);
}
ACLSHMEM_DEVICE float aclshmem_float_atomic_swap(__gm__ float* dest, float value, int32_t pe) {
  SYMSIM_AMO_ROUTE("aclshmem_float_atomic_swap",
                   ::symsim::shim::amo::bits<float>(aclshmemx_mte_atomic_swap<uint32_t>(
                       reinterpret_cast<uint32_t*>(dest), ::symsim::shim::amo::bits<uint32_t>(value), pe)));
  return ::symsim::shim::amo::bits<float>(aclshmemx_udma_atomic_swap<uint32_t>(
      reinterpret_cast<uint32_t*>(dest), ::symsim::shim::amo::bits<uint32_t>(value), pe));
}
#undef SYMSIM_AMO_CHECK
#undef SYMSIM_AMO_ROUTE
