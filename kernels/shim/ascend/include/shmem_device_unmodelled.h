// CANN SHMEM device calls symsim does not model: the SDMA engine (aclshmemx_sdma_*,
// aclshmemx_cmo_nbi), the RoCE engine (aclshmemx_roce_*, aclshmem_roce_ptr) and the SIMT
// cooperative RMA calls (aclshmemx_*_block / *_warp, device_simt). Each is a compile error that
// names the call, never a run-time failure.
#pragma once
#include <type_traits>

namespace symsim::shim {
template <typename... A>
struct unmodelled_engine : std::false_type {};
}  // namespace symsim::shim

#define SYMSIM_UNMODELLED(NAME, ENGINE)                                                                  \
  template <typename... A>                                                                               \
  inline int NAME(A&&...) {                                                                              \
    static_assert(::symsim::shim::unmodelled_engine<A...>::value,                                        \
                  #NAME " runs on the " ENGINE " engine, which symsim does not model (symsim models UDMA " \
                  "and the AIV core's MTE engine: aclshmemx_udma_*, aclshmemx_mte_*, the generic calls)"); \
    return 0;                                                                                            \
  }
SYMSIM_UNMODELLED(aclshmemx_sdma_put_nbi, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_sdma_get_nbi, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_sdma_quiet, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_sdma_notify_record, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_cmo_nbi, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_set_sdma_config, "SDMA")
SYMSIM_UNMODELLED(aclshmemx_roce_put_nbi, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_get_nbi, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_quiet, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_barrier, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_barrier_all, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_sync_all, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_team_sync, "RoCE")
SYMSIM_UNMODELLED(aclshmem_roce_ptr, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_add, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch_add, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_inc, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch_inc, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_set, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_swap, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_compare_swap, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_and, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch_and, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_or, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch_or, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_xor, "RoCE")
SYMSIM_UNMODELLED(aclshmemx_roce_atomic_fetch_xor, "RoCE")
// SIMT cooperative RMA (a VF's block or warp of threads moves the data together).
#define SYMSIM_SIMT_UNMODELLED(NAME) SYMSIM_UNMODELLED(NAME, "SIMT cooperative (block / warp)")
#define SYMSIM_SIMT_FORMS(PREFIX)                       \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_put_block)            \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_put_nbi_block)        \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_put_warp)             \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_put_nbi_warp)         \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_get_block)            \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_get_nbi_block)        \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_get_warp)             \
  SYMSIM_SIMT_UNMODELLED(PREFIX##_get_nbi_warp)
SYMSIM_SIMT_FORMS(aclshmemx_half)
SYMSIM_SIMT_FORMS(aclshmemx_float)
SYMSIM_SIMT_FORMS(aclshmemx_double)
SYMSIM_SIMT_FORMS(aclshmemx_int8)
SYMSIM_SIMT_FORMS(aclshmemx_int16)
SYMSIM_SIMT_FORMS(aclshmemx_int32)
SYMSIM_SIMT_FORMS(aclshmemx_int64)
SYMSIM_SIMT_FORMS(aclshmemx_uint8)
SYMSIM_SIMT_FORMS(aclshmemx_uint16)
SYMSIM_SIMT_FORMS(aclshmemx_uint32)
SYMSIM_SIMT_FORMS(aclshmemx_uint64)
SYMSIM_SIMT_FORMS(aclshmemx_char)
SYMSIM_SIMT_FORMS(aclshmemx_bfloat16)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put8_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put8_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put8_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put8_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get8_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get8_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get8_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get8_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put16_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put16_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put16_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put16_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get16_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get16_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get16_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get16_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put32_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put32_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put32_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put32_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get32_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get32_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get32_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get32_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put64_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put64_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put64_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put64_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get64_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get64_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get64_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get64_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put128_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put128_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put128_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_put128_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get128_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get128_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get128_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_get128_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_putmem_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_putmem_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_putmem_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_putmem_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_getmem_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_getmem_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_getmem_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_getmem_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_mte_put_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_mte_put_nbi_warp)
SYMSIM_SIMT_UNMODELLED(aclshmemx_mte_get_nbi_block)
SYMSIM_SIMT_UNMODELLED(aclshmemx_mte_get_nbi_warp)
#undef SYMSIM_SIMT_FORMS
#undef SYMSIM_SIMT_UNMODELLED
#undef SYMSIM_UNMODELLED
