// CANN SHMEM device API for the UDMA engine (AIV direct drive): put/get/put_signal on QP 0 or
// an explicit QP, quiet, symmetric address translation, vector barriers. Same names,
// signatures and semantics as upstream; each call builds real WQE bytes in the SQ ring and
// rings the doorbell through the engine's MMIO window.
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

#define ACLSHMEM_DEVICE __attribute__((always_inline)) inline

namespace symsim::shim {

struct UdmaRequest {
  uint8_t opcode = 0;
  bool mte3 = true;  // WQE staged in UB and copied by MTE3 (else scalar stores)
  uint8_t flags = 0;
  void* local = nullptr;   // SGE: local buffer
  void* remote = nullptr;  // symmetric address on `pe` (before translation)
  uint8_t* ub_buf = nullptr;
  uint64_t bytes = 0;
  int pe = 0;
  uint32_t qp = 0;
  uint32_t sync_id = 0;
  uint64_t* sig_addr = nullptr;
  uint64_t signal = 0;
  CallSite site{};
};

constexpr uint8_t udma_flags(const aclshmemx_udma_op_config_t& c) {
  return static_cast<uint8_t>((c.odr & 7u) | ((c.fence & 1u) << 3) | ((c.se & 1u) << 4) | ((c.cqe & 1u) << 5));
}

void udma_post(const UdmaRequest& r);
// Drains every CQE requested on (pe, qp) so far; traps on an error CQE.
void udma_quiet(int pe, uint32_t qp, CallSite site);
void* symmetric_ptr(const void* ptr, int pe);
void vector_barrier_all(CallSite site);

template <const aclshmemx_udma_op_config_t& CONFIG>
constexpr void check_config() {
  static_assert(CONFIG.cqe <= 1, "aclshmemx_udma_op_config_t.cqe must be 0 or 1");
  static_assert(CONFIG.se == 0, "aclshmemx_udma_op_config_t.se is not supported yet");
  static_assert(CONFIG.fence <= 1, "aclshmemx_udma_op_config_t.fence must be 0 or 1");
  static_assert(CONFIG.odr <= 7, "aclshmemx_udma_op_config_t.odr must be 0..7");
}

}  // namespace symsim::shim

ACLSHMEM_DEVICE int aclshmem_my_pe() { return symsim::shim::my_pe(); }
ACLSHMEM_DEVICE int aclshmem_n_pes() { return symsim::shim::n_pes(); }

ACLSHMEM_DEVICE __gm__ void* aclshmem_ptr(__gm__ void* ptr, int pe) { return symsim::shim::symmetric_ptr(ptr, pe); }

ACLSHMEM_DEVICE void aclshmemx_barrier_all_vec(symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::vector_barrier_all(site);
}
ACLSHMEM_DEVICE void aclshmemx_sync_vec_all(symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::vector_barrier_all(site);
}

// ---- put / get on QP 0 ------------------------------------------------------------------
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0,
                                            symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  static_assert(WQE_PIPE == PIPE_S || WQE_PIPE == PIPE_MTE3, "WQE_PIPE must be PIPE_S or PIPE_MTE3");
  symsim::shim::check_config<CONFIG>();
  symsim::shim::UdmaRequest r;
  r.opcode = 3;  // WRITE
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(CONFIG);
  r.local = src;
  r.remote = dst;
  r.ub_buf = reinterpret_cast<uint8_t*>(buf);
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                            uint32_t sync_id = 0,
                                            symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  static_assert(WQE_PIPE == PIPE_S || WQE_PIPE == PIPE_MTE3, "WQE_PIPE must be PIPE_S or PIPE_MTE3");
  symsim::shim::check_config<CONFIG>();
  symsim::shim::UdmaRequest r;
  r.opcode = 6;  // READ
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(CONFIG);
  r.local = dst;
  r.remote = src;
  r.ub_buf = reinterpret_cast<uint8_t*>(buf);
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

// Explicit-QP variants (aclshmemx_set_qp_num before init).
template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0,
                                               symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::check_config<CONFIG>();
  symsim::shim::UdmaRequest r;
  r.opcode = 3;
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(CONFIG);
  r.local = src;
  r.remote = dst;
  r.ub_buf = reinterpret_cast<uint8_t*>(buf);
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.qp = qp_idx;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3, const aclshmemx_udma_op_config_t& CONFIG = ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_get_nbi(__gm__ T* dst, __gm__ T* src, __ubuf__ T* buf, uint32_t elem_size, int pe,
                                               uint32_t qp_idx, uint32_t sync_id = 0,
                                               symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::check_config<CONFIG>();
  symsim::shim::UdmaRequest r;
  r.opcode = 6;
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(CONFIG);
  r.local = dst;
  r.remote = src;
  r.ub_buf = reinterpret_cast<uint8_t*>(buf);
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.qp = qp_idx;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

// ---- put with signal (WRITE_WITH_NOTIFY): the signal word lands after the data ------------
// PIPE_S path (no UB buffer).
template <typename T>
ACLSHMEM_DEVICE void aclshmemx_udma_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                   __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                   symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::UdmaRequest r;
  r.opcode = 5;
  r.mte3 = false;
  r.flags = symsim::shim::udma_flags(ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT);
  r.local = src;
  r.remote = dst;
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.sig_addr = sig_addr;
  r.signal = signal;
  r.site = site;
  symsim::shim::udma_post(r);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3>
ACLSHMEM_DEVICE void aclshmemx_udma_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                   __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                   __ubuf__ uint8_t* buf, uint32_t sync_id = 0,
                                                   symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::UdmaRequest r;
  r.opcode = 5;
  r.mte3 = WQE_PIPE == PIPE_MTE3;
  r.flags = symsim::shim::udma_flags(ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT);
  r.local = src;
  r.remote = dst;
  r.ub_buf = buf;
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.sig_addr = sig_addr;
  r.signal = signal;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

template <typename T, pipe_t WQE_PIPE = PIPE_MTE3>
ACLSHMEM_DEVICE void aclshmemx_udma_qp_put_signal_nbi(__gm__ T* dst, __gm__ T* src, uint32_t elem_size,
                                                      __gm__ uint64_t* sig_addr, uint64_t signal, int pe,
                                                      uint32_t qp_idx, __ubuf__ uint8_t* buf = nullptr,
                                                      uint32_t sync_id = 0,
                                                      symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::UdmaRequest r;
  r.opcode = 5;
  r.mte3 = WQE_PIPE == PIPE_MTE3 && buf != nullptr;
  r.flags = symsim::shim::udma_flags(ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT);
  r.local = src;
  r.remote = dst;
  r.ub_buf = buf;
  r.bytes = uint64_t{elem_size} * sizeof(T);
  r.pe = pe;
  r.qp = qp_idx;
  r.sig_addr = sig_addr;
  r.signal = signal;
  r.sync_id = sync_id;
  r.site = site;
  symsim::shim::udma_post(r);
}

// ---- completion ---------------------------------------------------------------------------
// Waits for every CQE requested so far on QP 0 of `pe` (completion, not ordering).
ACLSHMEM_DEVICE void aclshmemx_udma_quiet(int pe, symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::udma_quiet(pe, 0, site);
}
ACLSHMEM_DEVICE void aclshmemx_udma_qp_quiet(int pe, uint32_t qp_idx,
                                             symsim::shim::CallSite site = symsim::shim::CallSite::here()) {
  symsim::shim::udma_quiet(pe, qp_idx, site);
}
