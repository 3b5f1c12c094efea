// The shim's device API has CANN SHMEM's exact signatures (hicann/shmem 643bfb7): function
// pointers and decltype of upstream declarations compile and have upstream's types, because
// the call site is the return address of the shim call rather than an extra parameter.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
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
                             reinterpret_cast<const void*>(int32_put), reinterpret_cast<const void*>(float_get_nbi)};
  for (const void* a : addresses) EXPECT_NE(a, nullptr);
  EXPECT_NE(addresses[3], addresses[4]);
}

}  // namespace
