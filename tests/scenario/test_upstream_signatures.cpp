// The shim's device API has CANN SHMEM's exact signatures (hicann/shmem 643bfb7): function
// pointers and decltype of upstream declarations compile and have upstream's types, because
// the call site is the return address of the shim call rather than an extra parameter.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "shmem.h"
#include "shmem_device_amo.h"
#include "shmem_device_rma.h"
#include "shmem_device_sync.h"
#include "shmem_device_udma.h"

namespace {

template <typename Expected, typename Actual>
constexpr bool same = std::is_same<Expected, Actual>::value;

using RmaMem = void (*)(void*, void*, uint32_t, int32_t);
static_assert(same<RmaMem, decltype(&aclshmem_putmem)>, "aclshmem_putmem");
static_assert(same<RmaMem, decltype(&aclshmem_getmem)>, "aclshmem_getmem");
static_assert(same<RmaMem, decltype(&aclshmem_putmem_nbi)>, "aclshmem_putmem_nbi");
static_assert(same<RmaMem, decltype(&aclshmem_getmem_nbi)>, "aclshmem_getmem_nbi");
static_assert(same<RmaMem, decltype(&aclshmem_put32)>, "aclshmem_put32");
static_assert(same<RmaMem, decltype(&aclshmem_get64_nbi)>, "aclshmem_get64_nbi");
// Overloaded upstream as here (pointer, GlobalTensor, non-contiguous forms): the pointer form has
// upstream's exact type when a cast to it selects an overload.
constexpr void (*int32_put)(int32_t*, int32_t*, uint32_t, int32_t) = &aclshmem_int32_put;
constexpr void (*float_get_nbi)(float*, float*, uint32_t, int32_t) = &aclshmem_float_get_nbi;

static_assert(same<void (*)(int32_t*, int, int32_t), decltype(&aclshmem_int32_wait_until)>, "int32_wait_until");
static_assert(same<void (*)(uint64_t*, uint64_t), decltype(&aclshmem_uint64_wait)>, "uint64_wait");
static_assert(same<int (*)(int64_t*, int, int64_t), decltype(&aclshmem_int64_test)>, "int64_test");
static_assert(same<size_t (*)(int32_t*, size_t, const int*, int, int32_t), decltype(&aclshmem_int32_wait_until_any)>,
              "int32_wait_until_any");
static_assert(same<int32_t (*)(int32_t*, int, int32_t), decltype(&aclshmem_signal_wait_until)>, "signal_wait_until");
static_assert(same<void (*)(int32_t*, int32_t, int, int), decltype(&aclshmemx_signal_op)>, "signal_op");
static_assert(same<void (*)(uint8_t*, uint64_t), decltype(&dcci_cachelines)>, "dcci_cachelines");

static_assert(same<void (*)(), decltype(&aclshmem_quiet)>, "aclshmem_quiet");
static_assert(same<void (*)(), decltype(&aclshmem_fence)>, "aclshmem_fence");
static_assert(same<void (*)(), decltype(&aclshmem_sync_all)>, "aclshmem_sync_all");
static_assert(same<void (*)(), decltype(&aclshmemx_barrier_all_vec)>, "aclshmemx_barrier_all_vec");
static_assert(same<void (*)(aclshmem_team_t), decltype(&aclshmem_barrier)>, "aclshmem_barrier");

static_assert(same<void (*)(int32_t*, int32_t, int32_t), decltype(&aclshmem_int32_atomic_add)>, "int32_atomic_add");
static_assert(same<int64_t (*)(int64_t*, int64_t, int32_t), decltype(&aclshmem_int64_atomic_fetch_add)>,
              "int64_atomic_fetch_add");
static_assert(same<uint32_t (*)(uint32_t*, uint32_t, uint32_t, int32_t), decltype(&aclshmem_uint32_atomic_compare_swap)>,
              "uint32_atomic_compare_swap");
static_assert(same<int32_t (*)(const int32_t*, int32_t), decltype(&aclshmem_int32_atomic_fetch)>, "int32_atomic_fetch");

static_assert(same<void (*)(int), decltype(&aclshmemx_udma_quiet)>, "aclshmemx_udma_quiet");
static_assert(same<void (*)(int32_t*, int32_t, int32_t), decltype(&aclshmemx_udma_atomic_add<int32_t>)>,
              "aclshmemx_udma_atomic_add");
// Upstream: template <typename T, pipe_t WQE_PIPE = PIPE_MTE3> void aclshmemx_udma_put_nbi(T* dst, T* src,
// T* buf, uint32_t elem_size, int pe, uint32_t sync_id = 0).
using UdmaRma = void (*)(int32_t*, int32_t*, int32_t*, uint32_t, int, uint32_t);
constexpr UdmaRma udma_put = &aclshmemx_udma_put_nbi<int32_t, PIPE_MTE3>;
constexpr UdmaRma udma_get = &aclshmemx_udma_get_nbi<int32_t, PIPE_S>;
static_assert(same<void (*)(int32_t*, int32_t*, uint32_t, uint64_t*, uint64_t, int),
                   decltype(static_cast<void (*)(int32_t*, int32_t*, uint32_t, uint64_t*, uint64_t, int)>(
                       &aclshmemx_udma_put_signal_nbi<int32_t>))>,
              "aclshmemx_udma_put_signal_nbi");

// Scalar, strided and signal forms, half and bfloat16, the MTE engine and teams.
static_assert(same<void (*)(half*, const half, int), decltype(&aclshmem_half_p)>, "half_p");
static_assert(same<bfloat16_t (*)(bfloat16_t*, int32_t), decltype(&aclshmem_bfloat16_g)>, "bfloat16_g");
static_assert(same<void (*)(int32_t*, int32_t*, ptrdiff_t, ptrdiff_t, size_t, int), decltype(&aclshmem_int32_iput)>,
              "int32_iput");
static_assert(same<void (*)(void*, void*, ptrdiff_t, ptrdiff_t, size_t, int), decltype(&aclshmem_iget64)>, "iget64");
static_assert(same<void (*)(void*, void*, size_t, int32_t*, int32_t, int, int), decltype(&aclshmem_put32_signal)>,
              "put32_signal");
constexpr void (*half_put_nbi)(half*, half*, uint32_t, int32_t) = &aclshmem_half_put_nbi;
constexpr void (*int32_get_detailed)(int32_t*, int32_t*, const non_contiguous_copy_param&, int32_t) =
    &aclshmem_int32_get;
constexpr void (*mte_put)(float*, float*, float*, uint32_t, uint32_t, int, uint32_t) = &aclshmemx_mte_put_nbi<float>;
constexpr void (*mte_put_ub)(float*, float*, uint32_t, int, uint32_t) = &aclshmemx_mte_put_nbi<float>;
static_assert(same<void (*)(), decltype(&aclshmemx_mte_quiet)>, "mte_quiet");
static_assert(same<int (*)(aclshmem_team_t, int, int, int, aclshmem_team_t*), decltype(&aclshmem_team_split_strided)>,
              "team_split_strided");
static_assert(same<int (*)(aclshmem_team_t, int, aclshmem_team_t*, aclshmem_team_t*), decltype(&aclshmem_team_split_2d)>,
              "team_split_2d");
static_assert(same<int (*)(aclshmem_team_t, int, aclshmem_team_t), decltype(&aclshmem_team_translate_pe)>,
              "team_translate_pe");

// The SDMA and RoCE engines, MTE atomics, the SIMT device API and the team configuration.
constexpr void (*sdma_put)(int32_t*, int32_t*, int32_t*, uint32_t, uint32_t, int, uint32_t) =
    &aclshmemx_sdma_put_nbi<int32_t>;
constexpr void (*sdma_quiet)(uint8_t*, uint32_t, uint32_t) = &aclshmemx_sdma_quiet<uint8_t>;
constexpr void (*cmo)(uint8_t*, uint32_t, ACLSHMEMCMOTYPE, uint8_t*, uint32_t, uint32_t) = &aclshmemx_cmo_nbi<uint8_t>;
constexpr void (*roce_put)(float*, float*, float*, uint32_t, int) = &aclshmemx_roce_put_nbi<float>;
constexpr void (*roce_put_sync)(float*, float*, float*, uint32_t, int, uint32_t) = &aclshmemx_roce_put_nbi<float>;
static_assert(same<void (*)(uint32_t, uint8_t*, uint32_t), decltype(&aclshmemx_roce_quiet<uint8_t>)>, "roce_quiet");
static_assert(same<void* (*)(void*, int), decltype(&aclshmem_roce_ptr)>, "roce_ptr");
static_assert(same<void (*)(), decltype(static_cast<void (*)()>(&aclshmemx_roce_barrier_all))>, "roce_barrier_all");
static_assert(same<uint64_t (*)(uint64_t*, uint64_t, uint64_t, int32_t),
                   decltype(&aclshmemx_roce_atomic_compare_swap<uint64_t>)>,
              "roce_atomic_compare_swap");
static_assert(same<void (*)(int16_t*, int16_t, int32_t), decltype(&aclshmemx_mte_atomic_add<int16_t>)>,
              "mte_atomic_add");
static_assert(same<uint32_t (*)(uint32_t*, uint32_t, int32_t), decltype(&aclshmemx_mte_atomic_fetch_add<uint32_t>)>,
              "mte_atomic_fetch_add");
static_assert(same<void (*)(int8_t*, int8_t, int32_t), decltype(&aclshmem_int8_atomic_add)>, "int8_atomic_add");
static_assert(same<void (*)(bfloat16_t*, bfloat16_t, int32_t), decltype(&aclshmem_bfloat16_atomic_add)>,
              "bfloat16_atomic_add");
static_assert(same<void (*)(float*, float*, size_t, int32_t), decltype(&simt::aclshmemx_float_put_nbi_warp)>,
              "simt float_put_nbi_warp");
static_assert(same<void (*)(void*, void*, size_t, int32_t), decltype(&simt::aclshmemx_putmem_block)>,
              "simt putmem_block");
static_assert(same<void (*)(void*, void*, size_t, int32_t), decltype(&simt::aclshmemx_get64_nbi_block)>,
              "simt get64_nbi_block");
static_assert(same<int32_t (*)(int32_t*, int32_t), decltype(&simt::aclshmem_int32_g)>, "simt int32_g");
static_assert(same<int (*)(aclshmem_team_t, aclshmem_team_config_t*), decltype(&aclshmem_team_get_config)>,
              "team_get_config");

// AscendC (CANN's kernel_operator.h).
static_assert(same<void (*)(int32_t), decltype(&AscendC::SetFlag<AscendC::HardEvent::MTE3_S>)>, "SetFlag");
static_assert(same<void (*)(), decltype(&AscendC::PipeBarrier<PIPE_ALL>)>, "PipeBarrier");
static_assert(same<void (*)(const AscendC::GlobalTensor<float>&, const AscendC::LocalTensor<float>&, uint32_t),
                   decltype(static_cast<void (*)(const AscendC::GlobalTensor<float>&, const AscendC::LocalTensor<float>&,
                                                 uint32_t)>(&AscendC::DataCopy<float>))>,
              "DataCopy");
static_assert(same<void (*)(pipe_t), decltype(&pipe_barrier)>, "pipe_barrier");

TEST(UpstreamSignatures, DeviceCallsAreAddressableWithUpstreamTypes) {
  // The compile-time checks above are the test; taking the addresses at run time as well keeps
  // every one of them an odr-use (an always-inline function still has an address).
  const void* addresses[] = {reinterpret_cast<const void*>(&aclshmem_putmem),
                             reinterpret_cast<const void*>(&aclshmem_int32_wait_until),
                             reinterpret_cast<const void*>(&aclshmem_int32_atomic_add),
                             reinterpret_cast<const void*>(udma_put), reinterpret_cast<const void*>(udma_get),
                             reinterpret_cast<const void*>(int32_put), reinterpret_cast<const void*>(float_get_nbi),
                             reinterpret_cast<const void*>(half_put_nbi),
                             reinterpret_cast<const void*>(int32_get_detailed), reinterpret_cast<const void*>(mte_put),
                             reinterpret_cast<const void*>(mte_put_ub), reinterpret_cast<const void*>(sdma_put),
                             reinterpret_cast<const void*>(sdma_quiet), reinterpret_cast<const void*>(cmo),
                             reinterpret_cast<const void*>(roce_put), reinterpret_cast<const void*>(roce_put_sync)};
  for (const void* a : addresses) EXPECT_NE(a, nullptr);
  EXPECT_NE(addresses[3], addresses[4]);
}

}  // namespace
