// CANN SHMEM device API for the UDMA engine (AIV direct drive), as upstream declares it:
// put/get on QP 0, on an explicit QP and through a relay PE, each immediate or batched
// (aclshmemx_defer_t / aclshmemx_submit_t), put with signal, quiet, and the 14 remote atomics.
// Each call builds real WQE bytes in the SQ ring and rings the doorbell through the engine's
// MMIO window. Templates take <T, WQE_PIPE, CONFIG> with CONFIG an aclshmemx_udma_op_config_t
// (CQE, fence, ordering) encoded into the WQE's flag byte.
//
// Relay builds (-DACLSHMEM_RELAY_SUPPORT, as upstream) index the QP table by
// [pe * n_pes + relay_pe], make quiet(pe) drain every relay slot of pe, abort the QP-specific
// calls and delete qp_quiet; without it the relay calls do not compile. The two builds live
// in different inline namespaces so kernels of both kinds link into one program.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"
#include "symsim/udma_shim.h"

#define ACLSHMEM_DEVICE __attribute__((always_inline)) inline

#if defined(ACLSHMEM_RELAY_SUPPORT)
#define SYMSIM_UDMA_RELAY_BUILD true
#define SYMSIM_UDMA_BUILD_NS symsim_udma_relay_build
#else
#define SYMSIM_UDMA_RELAY_BUILD false
#define SYMSIM_UDMA_BUILD_NS symsim_udma_direct_build
#endif

ACLSHMEM_DEVICE int aclshmem_my_pe() { return symsim::shim::my_pe(); }
ACLSHMEM_DEVICE int aclshmem_n_pes() { return symsim::shim::n_pes(); }

ACLSHMEM_DEVICE __gm__ void* aclshmem_ptr(__gm__ void* ptr, int pe) { return symsim::shim::symmetric_ptr(ptr, pe); }

ACLSHMEM_DEVICE void aclshmemx_barrier_all_vec() {
  symsim::shim::vector_barrier_all();
}
ACLSHMEM_DEVICE void aclshmemx_sync_vec_all() {
  symsim::shim::vector_barrier_all();
}

inline namespace SYMSIM_UDMA_BUILD_NS {

namespace symsim_udma {

using symsim::shim::CallSite;
using symsim::shim::UdmaRequest;

constexpr uint8_t kWrite = 3, kWriteWithNotify = 5, kRead = 6;

template <const aclshmemx_udma_op_config_t& CONFIG>
constexpr void check_config() {
  static_assert(CONFIG.cqe <= 1, "UDMA op config cqe must be 0 or 1");
  static_assert(CONFIG.se == 0, "UDMA op config se is not supported yet");
  static_assert(CONFIG.fence <= 1, "UDMA op config fence must be 0 or 1");
  static_assert(CONFIG.odr <= 7, "UDMA op config odr must be in range 0..7");
}
template <pipe_t WQE_PIPE, const aclshmemx_udma_op_config_t& CONFIG>
constexpr void check_immediate() {
  static_assert(WQE_PIPE == PIPE_S || WQE_PIPE == PIPE_MTE3, "Only PIPE_S and PIPE_MTE3 are supported for UDMA WQE_PIPE");
  check_config<CONFIG>();
  static_assert(CONFIG.cqe != 0, "UDMA immediate NBI operations require CONFIG.cqe != 0");
}
template <pipe_t WQE_PIPE, const aclshmemx_udma_op_config_t& CONFIG>
constexpr void check_defer() {
  static_assert(WQE_PIPE == PIPE_MTE3, "UDMA aggregate (defer/submit) actions require WQE_PIPE == PIPE_MTE3");
  check_config<CONFIG>();
  static_assert(CONFIG.cqe == 0, "UDMA aggregate defer operations require CONFIG.cqe == 0");
}
template <pipe_t WQE_PIPE, const aclshmemx_udma_op_config_t& CONFIG>
constexpr void check_submit() {
  static_assert(WQE_PIPE == PIPE_MTE3, "UDMA aggregate (defer/submit) actions require WQE_PIPE == PIPE_MTE3");
  check_config<CONFIG>();
  static_assert(CONFIG.cqe != 0, "UDMA aggregate submit operations require CONFIG.cqe != 0");
}
template <typename T>
constexpr void relay_build_only() {
  static_assert(SYMSIM_UDMA_RELAY_BUILD && sizeof(T) != 0,
                "aclshmemx_udma_relay_put_nbi / aclshmemx_udma_relay_get_nbi require ACLSHMEM_RELAY_SUPPORT=ON; "
                "rebuild with -DACLSHMEM_RELAY_SUPPORT");
}

// A put or get: `local` is the SGE side, `remote` the symmetric address on `pe`.
template <typename T, pipe_t WQE_PIPE, const aclshmemx_udma_op_config_t& CONFIG>
SYMSIM_INLINE UdmaRequest rma(const char* api, uint8_t opcode, __gm__ T* local, __gm__ T* remote, __ubuf__ T* buf,
                       uint32_t elem_size, int pe, uint32_t qp, int relay_pe, uint32_t sync_id) {
  UdmaRequest r;
  r.api = api;
  r.opcode = opcode;
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(CONFIG);
  r.local = local;
  r.remote = remote;
  r.ub_buf = reinterpret_cast<uint8_t*>(buf);
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.relay_pe = relay_pe;
  r.relay_build = SYMSIM_UDMA_RELAY_BUILD;
  r.qp = qp;
  r.sync_id = sync_id;
  return r;
}

template <typename T, pipe_t WQE_PIPE, const aclshmemx_udma_op_config_t& CONFIG>
SYMSIM_INLINE UdmaRequest put_signal(const char* api, __gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                              __gm__ uint64_t* sig_addr, uint64_t signal, int pe, uint32_t qp, __ubuf__ uint8_t* buf,
                              uint32_t sync_id) {
  UdmaRequest r = rma<T, WQE_PIPE, CONFIG>(api, kWriteWithNotify, src, dst, nullptr, elem_size, pe, qp, -1, sync_id);
  r.ub_buf = buf;
  r.sig_addr = sig_addr;
  r.signal = signal;
  return r;
}

template <typename T>
constexpr bool is_amo_int() {
  return std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value || std::is_same<T, int64_t>::value ||
         std::is_same<T, uint64_t>::value;
}
template <typename T>
inline uint64_t amo_bits(T v) {
  using U = std::make_unsigned_t<T>;
  return static_cast<uint64_t>(static_cast<U>(v));
}

}  // namespace symsim_udma

// ---- put / get on QP 0 -------------------------------------------------------------------
// Immediate: one WQE, one doorbell. PIPE_MTE3 stages the WQE in `buf` (UB), PIPE_S writes it
// with scalar stores.
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_put_nbi", symsim_udma::kWrite, src, dst,
                                                                 buf, elem_size, pe, 0, -1, sync_id));
}
// Defer: stages the WQE in `buf` + 64 * pending_count; no GM is touched, nothing is rung.
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_put_nbi (defer)", symsim_udma::kWrite,
                                                                  src, dst, buf, elem_size, pe, 0, -1, sync_id),
                           action.state);
}
// Submit: stages this WQE, then copies the whole batch to the SQ ring in chunks, one doorbell
// per chunk; only this last WQE asks for a CQE.
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_put_nbi (submit)", symsim_udma::kWrite,
                                                                   src, dst, buf, elem_size, pe, 0, -1, sync_id),
                            action.state);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_get_nbi", symsim_udma::kRead, dst, src,
                                                                 buf, elem_size, pe, 0, -1, sync_id));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_get_nbi (defer)", symsim_udma::kRead,
                                                                  dst, src, buf, elem_size, pe, 0, -1, sync_id),
                           action.state);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_get_nbi (submit)", symsim_udma::kRead,
                                                                   dst, src, buf, elem_size, pe, 0, -1, sync_id),
                            action.state);
}

// ---- put / get on an explicit QP (aclshmemx_set_qp_num before init) ------------------------
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_put_nbi");
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_put_nbi", symsim_udma::kWrite, src,
                                                                 dst, buf, elem_size, pe, qp_idx, -1, sync_id));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_put_nbi");
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_put_nbi (defer)",
                                                                  symsim_udma::kWrite, src, dst, buf, elem_size, pe,
                                                                  qp_idx, -1, sync_id),
                           action.state);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_put_nbi");
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_put_nbi (submit)",
                                                                   symsim_udma::kWrite, src, dst, buf, elem_size, pe,
                                                                   qp_idx, -1, sync_id),
                            action.state);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_get_nbi");
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_get_nbi", symsim_udma::kRead, dst,
                                                                 src, buf, elem_size, pe, qp_idx, -1, sync_id));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_get_nbi");
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_get_nbi (defer)", symsim_udma::kRead,
                                                                  dst, src, buf, elem_size, pe, qp_idx, -1, sync_id),
                           action.state);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_get_nbi");
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_qp_get_nbi (submit)",
                                                                   symsim_udma::kRead, dst, src, buf, elem_size, pe,
                                                                   qp_idx, -1, sync_id),
                            action.state);
}

// ---- relay put / get (relay builds): leave through the link toward relay_pe ----------------
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id = 0) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_put_nbi", pe, relay_pe);
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_put_nbi", symsim_udma::kWrite,
                                                                 src, dst, buf, elem_size, pe, 0, relay_pe, sync_id));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_put_nbi (defer)", pe, relay_pe);
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_put_nbi (defer)",
                                                                  symsim_udma::kWrite, src, dst, buf, elem_size, pe, 0,
                                                                  relay_pe, sync_id),
                           action.state);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_put_nbi (submit)", pe, relay_pe);
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_put_nbi (submit)",
                                                                   symsim_udma::kWrite, src, dst, buf, elem_size, pe, 0,
                                                                   relay_pe, sync_id),
                            action.state);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id = 0) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_get_nbi", pe, relay_pe);
  symsim::shim::udma_post(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_get_nbi", symsim_udma::kRead, dst,
                                                                 src, buf, elem_size, pe, 0, relay_pe, sync_id));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id, aclshmemx_defer_t action) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_defer<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_get_nbi (defer)", pe, relay_pe);
  symsim::shim::udma_defer(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_get_nbi (defer)",
                                                                  symsim_udma::kRead, dst, src, buf, elem_size, pe, 0,
                                                                  relay_pe, sync_id),
                           action.state);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size,
                                                  int pe, int relay_pe, uint32_t sync_id, aclshmemx_submit_t action) {
  symsim_udma::relay_build_only<T>();
  symsim_udma::check_submit<WQE_PIPE, CONFIG>();
  symsim::shim::udma_check_relay("aclshmemx_udma_relay_get_nbi (submit)", pe, relay_pe);
  symsim::shim::udma_submit(symsim_udma::rma<T, WQE_PIPE, CONFIG>("aclshmemx_udma_relay_get_nbi (submit)",
                                                                   symsim_udma::kRead, dst, src, buf, elem_size, pe, 0,
                                                                   relay_pe, sync_id),
                            action.state);
}

// ---- GlobalTensor / LocalTensor overloads: forward the physical addresses ------------------

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0) {
  aclshmemx_udma_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_defer_t action) {
  aclshmemx_udma_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_submit_t action) {
  aclshmemx_udma_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0) {
  aclshmemx_udma_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_defer_t action) {
  aclshmemx_udma_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                            const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id, aclshmemx_submit_t action) {
  aclshmemx_udma_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                              sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0) {
  aclshmemx_udma_qp_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_defer_t action) {
  aclshmemx_udma_qp_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_submit_t action) {
  aclshmemx_udma_qp_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0) {
  aclshmemx_udma_qp_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFER>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_defer_t action) {
  aclshmemx_udma_qp_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                               const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id, aclshmemx_submit_t action) {
  aclshmemx_udma_qp_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                 qp_idx, sync_id, action);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_put_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                                  const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                                  int relay_pe, uint32_t sync_id = 0) {
  aclshmemx_udma_relay_put_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                    relay_pe, sync_id);
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_relay_get_nbi(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                                  const AscendC::LocalTensor<T>& buf, uint32_t elem_size, int pe,
                                                  int relay_pe, uint32_t sync_id = 0) {
  aclshmemx_udma_relay_get_nbi<T, WQE_PIPE, CONFIG>(dst.GetPhyAddr(), src.GetPhyAddr(), buf.GetPhyAddr(), elem_size, pe,
                                                    relay_pe, sync_id);
}

// ---- put with signal (WRITE_WITH_NOTIFY): the signal word lands after the data ------------
// No UB buffer: the PIPE_S path.
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_udma_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                   __gm__ uint64_t* sig_addr, uint64_t signal, int pe) {
  symsim::shim::udma_post(symsim_udma::put_signal<T, PIPE_S, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      "aclshmemx_udma_put_signal_nbi", dst, src, elem_size, sig_addr, signal, pe, 0, nullptr, 0));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                   __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                   __ubuf__ uint8_t* buf, uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  symsim::shim::udma_post(symsim_udma::put_signal<T, WQE_PIPE, CONFIG>(
      "aclshmemx_udma_put_signal_nbi", dst, src, elem_size, sig_addr, signal, pe, 0, buf, sync_id));
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                      __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                      uint32_t qp_idx) {
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_put_signal_nbi");
  symsim::shim::udma_post(symsim_udma::put_signal<T, PIPE_S, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(
      "aclshmemx_udma_qp_put_signal_nbi", dst, src, elem_size, sig_addr, signal, pe, qp_idx, nullptr, 0));
}
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                      __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                      uint32_t qp_idx, __ubuf__ uint8_t* buf, uint32_t sync_id = 0) {
  symsim_udma::check_immediate<WQE_PIPE, CONFIG>();
  if (SYMSIM_UDMA_RELAY_BUILD) symsim::shim::udma_qp_api_in_relay_build("aclshmemx_udma_qp_put_signal_nbi");
  symsim::shim::udma_post(symsim_udma::put_signal<T, WQE_PIPE, CONFIG>(
      "aclshmemx_udma_qp_put_signal_nbi", dst, src, elem_size, sig_addr, signal, pe, qp_idx, buf, sync_id));
}

// ---- completion ---------------------------------------------------------------------------
// Waits for every CQE requested so far on QP 0 of `pe` (relay builds: on every relay slot of
// `pe`). Completion, not ordering; QPs other than 0 need aclshmemx_udma_qp_quiet.
ACLSHMEM_DEVICE void aclshmemx_udma_quiet(int pe) {
  symsim::shim::udma_quiet(pe, 0, SYMSIM_UDMA_RELAY_BUILD);
}
#if defined(ACLSHMEM_RELAY_SUPPORT)
ACLSHMEM_DEVICE void aclshmemx_udma_qp_quiet(int pe, uint32_t qp_idx) = delete;
#else
ACLSHMEM_DEVICE void aclshmemx_udma_qp_quiet(int pe, uint32_t qp_idx) {
  symsim::shim::udma_quiet(pe, qp_idx, false);
}
#endif

// ---- remote atomics on QP 0 (int32/uint32/int64/uint64; add and inc also float) ------------
// Native: integer add = FAA (old value to the AMO buffer), compare_swap = CAS, float add =
// WRITE with reduce. Fetching calls wait for completion (quiet) and read the AMO buffer.
// set/swap/and/or/xor are emulated as upstream does: READ + quiet, then a CAS loop.
#define SYMSIM_UDMA_AMO_INT(NAME)                                                                                \
  static_assert(symsim_udma::is_amo_int<T>(), #NAME " supports int32_t, uint32_t, int64_t and uint64_t "         \
                                                    "(upstream's types)")

template <typename T>
ACLSHMEM_DEVICE void aclshmemx_udma_atomic_add(__gm__ T* dst, T value, int32_t pe) {
  static_assert(symsim_udma::is_amo_int<T>() || std::is_same<T, float>::value,
                "aclshmemx_udma_atomic_add supports int32_t, uint32_t, int64_t, uint64_t and float");
  if constexpr (std::is_same<T, float>::value) {
    symsim::shim::udma_atomic_add_fp32(dst, value, pe, SYMSIM_UDMA_RELAY_BUILD, "aclshmemx_udma_atomic_add");
  } else {
    symsim::shim::udma_atomic_fetch_add(dst, symsim_udma::amo_bits(value), sizeof(T), pe, false,
                                        SYMSIM_UDMA_RELAY_BUILD, "aclshmemx_udma_atomic_add");
  }
}
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_udma_atomic_inc(__gm__ T* dst, int32_t pe) {
  aclshmemx_udma_atomic_add<T>(dst, static_cast<T>(1), pe);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_udma_atomic_fetch_add(__gm__ T* dst, T value, int32_t pe) {
  SYMSIM_UDMA_AMO_INT(aclshmemx_udma_atomic_fetch_add);
  return static_cast<T>(symsim::shim::udma_atomic_fetch_add(dst, symsim_udma::amo_bits(value), sizeof(T), pe, true,
                                                            SYMSIM_UDMA_RELAY_BUILD, "aclshmemx_udma_atomic_fetch_add"));
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_udma_atomic_fetch_inc(__gm__ T* dst, int32_t pe) {
  SYMSIM_UDMA_AMO_INT(aclshmemx_udma_atomic_fetch_inc);
  return aclshmemx_udma_atomic_fetch_add<T>(dst, static_cast<T>(1), pe);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_udma_atomic_fetch(__gm__ T* dst, int32_t pe) {
  SYMSIM_UDMA_AMO_INT(aclshmemx_udma_atomic_fetch);
  return aclshmemx_udma_atomic_fetch_add<T>(dst, static_cast<T>(0), pe);
}
template <typename T>
ACLSHMEM_DEVICE T aclshmemx_udma_atomic_compare_swap(__gm__ T* dst, T cond, T value, int32_t pe) {
  SYMSIM_UDMA_AMO_INT(aclshmemx_udma_atomic_compare_swap);
  return static_cast<T>(symsim::shim::udma_atomic_compare_swap(dst, symsim_udma::amo_bits(cond),
                                                               symsim_udma::amo_bits(value), sizeof(T), pe,
                                                               SYMSIM_UDMA_RELAY_BUILD,
                                                               "aclshmemx_udma_atomic_compare_swap"));
}

#define SYMSIM_UDMA_AMO_EMULATED(NAME, OP, RET, RETURN)                                                          \
  template <typename T>                                                                                          \
  ACLSHMEM_DEVICE RET NAME(__gm__ T* dst, T value, int32_t pe) {                                                 \
    SYMSIM_UDMA_AMO_INT(NAME);                                                                                   \
    RETURN static_cast<T>(symsim::shim::udma_atomic_emulated(symsim::shim::AmoEmulated::OP, dst,                 \
                                                             symsim_udma::amo_bits(value), sizeof(T), pe,        \
                                                             SYMSIM_UDMA_RELAY_BUILD, #NAME));                   \
  }
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_set, kSet, void, (void))
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_swap, kSwap, T, return)
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_fetch_and, kAnd, T, return)
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_and, kAnd, void, (void))
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_fetch_or, kOr, T, return)
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_or, kOr, void, (void))
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_fetch_xor, kXor, T, return)
SYMSIM_UDMA_AMO_EMULATED(aclshmemx_udma_atomic_xor, kXor, void, (void))
#undef SYMSIM_UDMA_AMO_EMULATED
#undef SYMSIM_UDMA_AMO_INT

}  // inline namespace SYMSIM_UDMA_BUILD_NS
