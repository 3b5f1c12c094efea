// CANN SHMEM's SDMA engine (shmem_device_sdma.h): an AIV block writes copy SQEs into its own
// STARS queue (one per block index, 1 MiB per SQE as upstream splits them) and rings the queue's
// doorbell; the die's SDMA engine (models/ascend/sdma_engine.h) runs them in queue order and
// moves the bytes between HBMs, across the UB fabric when a side is another PE's. The put / get
// calls return once the doorbell is rung; aclshmemx_sdma_quiet submits a flag SQE behind them
// and polls for it (so it returns once every earlier SQE of the block is done);
// aclshmemx_sdma_notify_record queues a notify-record SQE; aclshmemx_cmo_nbi queues a prefetch
// (the only CMO upstream performs; any other type returns at once, as upstream's does). The UB
// buffer is where upstream builds the doorbell values: it must lie in the calling core's Unified
// Buffer and hold a 64 B block.
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "shmem_device_udma.h"
#include "shmem_host.h"
#include "symsim/shim_core.h"

enum class ACLSHMEMCMOTYPE : uint32_t {
  CMO_TYPE_PREFETCH = 6,  // load into L2
  CMO_TYPE_WRITEBACK,
  CMO_TYPE_INVALID,
  CMO_TYPE_FLUSH,
  CMO_TYPE_MAX,
};

namespace symsim::shim::sdma {
// `bytes` from `src` to `dst`; `pe` is the peer whose address `put` (dst) or get (src) names.
void post(const char* api, void* dst, const void* src, uint64_t bytes, int pe, bool put, const void* ub,
          uint64_t ub_bytes);
void quiet(const char* api, const void* ub, uint64_t ub_bytes);
void notify_record(const char* api, const void* ub, uint64_t ub_bytes);
void prefetch(const char* api, const void* src, uint64_t bytes, const void* ub, uint64_t ub_bytes);
}  // namespace symsim::shim::sdma

// aclshmemx_set_sdma_config: shmem_host.h (host programs and kernels).

template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                            uint32_t elem_size, int pe, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::post("aclshmemx_sdma_get_nbi", dst, src, uint64_t{elem_size} * sizeof(T), pe, false, buf,
                             ub_size);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_get_nbi(AscendC::GlobalTensor<T>& dst, AscendC::GlobalTensor<T>& src,
                                            AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::post("aclshmemx_sdma_get_nbi", dst.GetPhyAddr(), src.GetPhyAddr(),
                             uint64_t{elem_size} * sizeof(T), pe, false, buf.GetPhyAddr(), 64);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t ub_size,
                                            uint32_t elem_size, int pe, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::post("aclshmemx_sdma_put_nbi", dst, src, uint64_t{elem_size} * sizeof(T), pe, true, buf,
                             ub_size);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_put_nbi(AscendC::GlobalTensor<T>& dst, AscendC::GlobalTensor<T>& src,
                                            AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::post("aclshmemx_sdma_put_nbi", dst.GetPhyAddr(), src.GetPhyAddr(),
                             uint64_t{elem_size} * sizeof(T), pe, true, buf.GetPhyAddr(), 64);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_cmo_nbi(__gm__ T* src, uint32_t elem_size, ACLSHMEMCMOTYPE cmo_type, __ubuf__ T* buf,
                                       uint32_t ub_size, uint32_t sync_id) {
  (void)sync_id;
  if (cmo_type != ACLSHMEMCMOTYPE::CMO_TYPE_PREFETCH) return;
  ::symsim::shim::sdma::prefetch("aclshmemx_cmo_nbi", src, uint64_t{elem_size} * sizeof(T), buf, ub_size);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_cmo_nbi(AscendC::GlobalTensor<T>& src, uint32_t elem_size, ACLSHMEMCMOTYPE cmo_type,
                                       AscendC::LocalTensor<T>& buf, uint32_t sync_id) {
  (void)sync_id;
  if (cmo_type != ACLSHMEMCMOTYPE::CMO_TYPE_PREFETCH) return;
  ::symsim::shim::sdma::prefetch("aclshmemx_cmo_nbi", src.GetPhyAddr(), uint64_t{elem_size} * sizeof(T),
                                 buf.GetPhyAddr(), 64);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_quiet(AscendC::LocalTensor<T>& buf, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::quiet("aclshmemx_sdma_quiet", buf.GetPhyAddr(), 64);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_quiet(__ubuf__ T* buf, uint32_t ub_size, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::quiet("aclshmemx_sdma_quiet", buf, ub_size);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_notify_record(AscendC::LocalTensor<T>& buf, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::notify_record("aclshmemx_sdma_notify_record", buf.GetPhyAddr(), 64);
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_sdma_notify_record(__ubuf__ T* buf, uint32_t ub_size, uint32_t sync_id) {
  (void)sync_id;
  ::symsim::shim::sdma::notify_record("aclshmemx_sdma_notify_record", buf, ub_size);
}
#define shmem_sdma_put_nbi aclshmemx_sdma_put_nbi
#define shmem_sdma_get_nbi aclshmemx_sdma_get_nbi
