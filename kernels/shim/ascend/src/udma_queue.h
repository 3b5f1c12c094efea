// The kernel side of one UDMA QP as CANN SHMEM drives it: finding the QP of a request in the
// device tables, publishing WQE bytes into the SQ ring (scalar stores or UB + MTE3) with the
// credit check, and draining the CQ. Shared by the immediate, batched and atomic paths.
#pragma once
#include <cstdint>
#include <string>

#include "models/ascend/wqe_layout.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"
#include "symsim/udma_shim.h"

namespace symsim::shim {

// One QP of this PE's device tables: [pe][qp] (direct builds) or [pe * n + relay][0] (relay).
struct QpView {
  aclshmemi_udma_wq_ctx_t* sq = nullptr;
  aclshmemi_udma_cq_ctx_t* cq = nullptr;
  aclshmemi_ubmem_info_t* mem = nullptr;
  int pe = 0;       // target PE
  int slot = 0;     // table row
  uint32_t qp = 0;  // index in the row
};

// The QP a call of `api` uses; traps on a PE, relay or QP index out of range, or a build
// mismatch between kernel and host program.
QpView qp_view(const char* api, int pe, int relay_pe, uint32_t qp, bool relay_build, CallSite site);
// The WQE fields every request shares, from the QP's memory info and the request.
udma::Wqe base_wqe(const QpView& v, uint8_t opcode, uint8_t flags, uint64_t remote_va, uint64_t local_va,
                   uint64_t bytes);
// Writes `w` at the SQ head (after the credit check), rings the doorbell and counts the CQE.
// `mte3`: stage in `ub` and copy with MTE3 between S/MTE3 flag pairs on `sync_id`.
void publish_wqe(const QpView& v, const udma::Wqe& w, bool mte3, uint8_t* ub, uint32_t sync_id, CallSite site);
// The internal forms of udma_shim.h's entry points, for shim code, which passes the call site.
void udma_quiet_at(int pe, uint32_t qp, bool relay_build, CallSite site);
uint64_t udma_atomic_fetch_add_at(void* dst, uint64_t value, uint32_t width, int pe, bool fetch, bool relay_build,
                                  const char* api, CallSite site);
uint64_t udma_atomic_compare_swap_at(void* dst, uint64_t cond, uint64_t value, uint32_t width, int pe,
                                     bool relay_build, const char* api, CallSite site);
uint64_t udma_atomic_emulated_at(AmoEmulated op, void* dst, uint64_t value, uint32_t width, int pe,
                                 bool relay_build, const char* api, CallSite site);
// Polls the CQ of `v` until `target` CQEs have been consumed; traps on an error CQE.
void poll_cq(const QpView& v, uint32_t target, CallSite site);
// st_dev of a 32-bit doorbell value (a scalar store, never from a SIMT VF).
void ring_doorbell(uint64_t db_addr, uint32_t value, CallSite site);
// head + bb - tail + guard < depth (CANN SHMEM's credit rule).
bool sq_has_credit(const QpView& v, uint32_t bb);
// A simulated address as messages show it, the same in every run: "pe0.aiv1.ub+0x40".
std::string address_name(const void* p);

}  // namespace symsim::shim
