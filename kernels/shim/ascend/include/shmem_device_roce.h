// CANN SHMEM's RoCE engine (shmem_device_rdma.h): the die's RDMA NIC (models/ascend/roce_engine.h)
// on a plane of its own, one QP per peer. The calling core builds each WQE in the UB buffer it
// is given (or the aclshmemx_set_rdma_config one), copies it to the SQ with MTE3 and rings the
// doorbell; the NIC runs the WQEs of a QP in order. put / get return once posted;
// aclshmemx_roce_quiet(pe) returns once every WQE posted to `pe` is complete; the barriers quiet
// every peer of the team first, then synchronise (a dissemination over the RDMA plane: rounds of
// roce.wqe_ns plus a one-way roce.latency_ns each). The atomics are the NIC's masked FAA / CAS,
// which upstream issues on its XSCALE RDMA backend only (roce.xscale_atomics = 0, as the 910C
// presets set it, stops the kernel naming the call, as upstream's debug build aborts); the
// fetching forms wait for the response.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_operator.h"
#include "shmem_device_udma.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

// The device view of a team upstream's RoCE barriers take (shmem_common_types.h).
typedef struct {
  int mype;
  int start;
  int stride;
  int size;
  int team_idx;
  aclshmem_team_config_t config;
  int32_t pe_mapping[2 * ACLSHMEM_MAX_PES];
} aclshmemx_team_t;

namespace symsim::shim::roce {
// `ub`: the WQE staging buffer (null: the aclshmemx_set_rdma_config one).
void rma(const char* api, bool put, void* dst, const void* src, uint64_t bytes, int pe, const void* ub);
void quiet(const char* api, int pe, const void* ub);
// Every peer of team `team` quiet first when `quiet_peers`, then every block of the members' launches meets.
void team_sync(const char* api, int team, bool quiet_peers, const void* ub);
enum class Amo { kFetchAdd, kCompareSwap, kSwap, kAnd, kOr, kXor };
// One atomic on the `width`-byte word `dst` of `pe`; `fetch`: wait and return the old value.
uint64_t amo(const char* api, Amo op, void* dst, uint64_t value, uint64_t cond, uint32_t width, int pe, bool fetch);
void* ptr(const void* p, int pe);

template <typename T>
uint64_t bits(T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "RoCE atomics take 4- or 8-byte words");
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
T value_of(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
template <typename T>
constexpr bool kLogicWord = std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value ||
                            std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value;
}  // namespace symsim::shim::roce

ACLSHMEM_DEVICE __gm__ void* aclshmem_roce_ptr(__gm__ void* ptr, int pe) { return ::symsim::shim::roce::ptr(ptr, pe); }
#define shmem_roce_ptr aclshmem_roce_ptr

#define SYMSIM_ROCE_RMA(NAME, PUT)                                                                                  \
  template <typename T>                                                                                             \
  ACLSHMEM_DEVICE void NAME(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe) {           \
    ::symsim::shim::roce::rma(#NAME, PUT, dst, src, uint64_t{elem_size} * sizeof(T), pe, buf);                      \
  }                                                                                                                 \
  template <typename T>                                                                                             \
  ACLSHMEM_DEVICE void NAME(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe, uint32_t) { \
    ::symsim::shim::roce::rma(#NAME, PUT, dst, src, uint64_t{elem_size} * sizeof(T), pe, buf);                      \
  }                                                                                                                 \
  template <typename T>                                                                                             \
  ACLSHMEM_DEVICE void NAME(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src, AscendC::LocalTensor<T> buf, \
                            uint32_t elem_size, int pe) {                                                           \
    ::symsim::shim::roce::rma(#NAME, PUT, dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t{elem_size} * sizeof(T), pe,  \
                              buf.GetPhyAddr());                                                                    \
  }                                                                                                                 \
  template <typename T>                                                                                             \
  ACLSHMEM_DEVICE void NAME(AscendC::GlobalTensor<T> dst, AscendC::GlobalTensor<T> src, AscendC::LocalTensor<T> buf, \
                            uint32_t elem_size, int pe, uint32_t) {                                                 \
    ::symsim::shim::roce::rma(#NAME, PUT, dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t{elem_size} * sizeof(T), pe,  \
                              buf.GetPhyAddr());                                                                    \
  }
SYMSIM_ROCE_RMA(aclshmemx_roce_get_nbi, false)
SYMSIM_ROCE_RMA(aclshmemx_roce_put_nbi, true)
#undef SYMSIM_ROCE_RMA
#define shmem_roce_get_mem_nbi aclshmemx_roce_get_nbi
#define shmem_roce_put_mem_nbi aclshmemx_roce_put_nbi

template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_quiet(uint32_t pe, __ubuf__ T* buf, uint32_t) {
  ::symsim::shim::roce::quiet("aclshmemx_roce_quiet", static_cast<int>(pe), buf);
}

ACLSHMEM_DEVICE int aclshmemx_roce_team_sync(aclshmemx_team_t* team) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_team_sync", team->team_idx, false, nullptr);
  return 0;
}
#define aclshmemx_roce_sync aclshmemx_roce_team_sync
template <typename T>
ACLSHMEM_DEVICE int aclshmemx_roce_team_sync(aclshmemx_team_t* team, __ubuf__ T* buf, uint32_t) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_team_sync", team->team_idx, false, buf);
  return 0;
}
ACLSHMEM_DEVICE void aclshmemx_roce_sync_all() {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_sync_all", ACLSHMEM_TEAM_WORLD, false, nullptr);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_sync_all(__ubuf__ T* buf, uint32_t) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_sync_all", ACLSHMEM_TEAM_WORLD, false, buf);
}
ACLSHMEM_DEVICE int aclshmemx_roce_barrier(aclshmemx_team_t* team) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_barrier", team->team_idx, true, nullptr);
  return 0;
}
template <typename T>
ACLSHMEM_DEVICE int aclshmemx_roce_barrier(aclshmemx_team_t* team, __ubuf__ T* buf, uint32_t) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_barrier", team->team_idx, true, buf);
  return 0;
}
ACLSHMEM_DEVICE void aclshmemx_roce_barrier_all() {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_barrier_all", ACLSHMEM_TEAM_WORLD, true, nullptr);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_barrier_all(__ubuf__ T* buf, uint32_t) {
  ::symsim::shim::roce::team_sync("aclshmemx_roce_barrier_all", ACLSHMEM_TEAM_WORLD, true, buf);
}

#define SYMSIM_ROCE_AMO(OP, ...) \
  ::symsim::shim::roce::amo(__func__, ::symsim::shim::roce::Amo::OP, __VA_ARGS__)
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_roce_atomic_fetch(__gm__ T* src, int32_t pe) {
  return ::symsim::shim::roce::value_of<T>(
      SYMSIM_ROCE_AMO(kFetchAdd, src, 0, 0, sizeof(T), pe, true));
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_atomic_set(__gm__ T* dst, T value, int32_t pe) {
  SYMSIM_ROCE_AMO(kSwap, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, false);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_roce_atomic_compare_swap(__gm__ T* dst, T cond, T value, int32_t pe) {
  return ::symsim::shim::roce::value_of<T>(SYMSIM_ROCE_AMO(kCompareSwap, dst, ::symsim::shim::roce::bits(value),
                                                           ::symsim::shim::roce::bits(cond), sizeof(T), pe, true));
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_roce_atomic_swap(__gm__ T* dst, T value, int32_t pe) {
  return ::symsim::shim::roce::value_of<T>(
      SYMSIM_ROCE_AMO(kSwap, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, true));
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_atomic_inc(__gm__ T* dst, int32_t pe) {
  SYMSIM_ROCE_AMO(kFetchAdd, dst, ::symsim::shim::roce::bits(static_cast<T>(1)), 0, sizeof(T), pe, false);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_roce_atomic_add(__gm__ T* dst, T value, int32_t pe) {
  static_assert(std::is_integral<T>::value, "aclshmemx_roce_atomic_add: the NIC adds integers (upstream: no float)");
  SYMSIM_ROCE_AMO(kFetchAdd, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, false);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_roce_atomic_fetch_inc(__gm__ T* dst, int32_t pe) {
  return ::symsim::shim::roce::value_of<T>(
      SYMSIM_ROCE_AMO(kFetchAdd, dst, ::symsim::shim::roce::bits(static_cast<T>(1)), 0, sizeof(T), pe, true));
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_roce_atomic_fetch_add(__gm__ T* dst, T value, int32_t pe) {
  static_assert(std::is_integral<T>::value, "aclshmemx_roce_atomic_fetch_add: the NIC adds integers (upstream: no float)");
  return ::symsim::shim::roce::value_of<T>(
      SYMSIM_ROCE_AMO(kFetchAdd, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, true));
}
#define SYMSIM_ROCE_LOGIC(NAME, OP)                                                                               \
  template <typename T>                                                                                           \
  ACLSHMEM_DEVICE void aclshmemx_roce_atomic_##NAME(__gm__ T* dst, T value, int32_t pe) {                        \
    static_assert(::symsim::shim::roce::kLogicWord<T>,                                                           \
                  "aclshmemx_roce_atomic_" #NAME " only supports int32, uint32, int64, uint64 types");            \
    SYMSIM_ROCE_AMO(OP, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, false);                         \
  }                                                                                                               \
  template <typename T>                                                                                           \
  ACLSHMEM_DEVICE T aclshmemx_roce_atomic_fetch_##NAME(__gm__ T* dst, T value, int32_t pe) {                     \
    static_assert(::symsim::shim::roce::kLogicWord<T>,                                                           \
                  "aclshmemx_roce_atomic_fetch_" #NAME " only supports int32, uint32, int64, uint64 types");      \
    return ::symsim::shim::roce::value_of<T>(                                                                     \
        SYMSIM_ROCE_AMO(OP, dst, ::symsim::shim::roce::bits(value), 0, sizeof(T), pe, true));                     \
  }
SYMSIM_ROCE_LOGIC(and, kAnd)
SYMSIM_ROCE_LOGIC(or, kOr)
SYMSIM_ROCE_LOGIC(xor, kXor)
#undef SYMSIM_ROCE_LOGIC
