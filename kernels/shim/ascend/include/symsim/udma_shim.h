// What the CANN SHMEM UDMA device API (shmem_device_udma.h) calls into: one request type and
// the shim functions that build WQE bytes, ring doorbells, batch, poll and emulate atomics.
// Kernel authors never include this directly.
#pragma once
#include <cstdint>

#include "shmem_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim {

// One UDMA operation as the device API describes it.
struct UdmaRequest {
  const char* api = "";    // the CANN SHMEM call, for messages
  uint8_t opcode = 0;      // udma::Opcode
  bool mte3 = true;        // WQE staged in UB and copied by MTE3 (else scalar stores)
  uint8_t flags = 0;       // the SQE flag byte (aclshmemx_udma_op_config_t)
  void* local = nullptr;   // SGE: local buffer
  void* remote = nullptr;  // symmetric address on `pe` (before translation)
  uint8_t* ub_buf = nullptr;
  uint64_t bytes = 0;
  int pe = 0;
  int relay_pe = -1;       // relay builds: the PE whose port forwards (-1: direct)
  bool relay_build = false;
  uint32_t qp = 0;
  uint32_t sync_id = 0;
  uint64_t* sig_addr = nullptr;  // WRITE_WITH_NOTIFY
  uint64_t signal = 0;
  CallSite site{};         // set by the shim entry point
};

constexpr uint8_t udma_flags(const aclshmemx_udma_op_config_t& c) {
  return static_cast<uint8_t>((c.odr & 7u) | ((c.fence & 1u) << 3) | ((c.se & 1u) << 4) | ((c.cqe & 1u) << 5));
}

// Posts one WQE now (credit check, WQE build, doorbell).
void udma_post(UdmaRequest r);
// Stages one WQE of a batch in UB (defer), or stages it and submits the whole batch (submit).
void udma_defer(UdmaRequest r, aclshmemx_submit_state_t& state);
void udma_submit(UdmaRequest r, aclshmemx_submit_state_t& state);
// Drains every CQE requested on (pe, qp); relay builds drain every relay slot of pe. Traps on
// an error CQE.
void udma_quiet(int pe, uint32_t qp, bool relay_build);
// Relay preconditions (0 <= pe, relay < n, pe != relay, neither is the caller); a violation
// stops the kernel with a message naming `api` (upstream aborts in debug builds).
void udma_check_relay(const char* api, int pe, int relay_pe);
// Upstream aborts the QP-specific calls in relay builds.
[[noreturn]] void udma_qp_api_in_relay_build(const char* api);

// Remote atomics on QP 0 of `pe` (width 4 or 8 bytes). Native: FAA, CAS, float add as WRITE
// with reduce. `fetch` waits for completion and returns the old value from the AMO buffer.
uint64_t udma_atomic_fetch_add(void* dst, uint64_t value, uint32_t width, int pe, bool fetch, bool relay_build,
                               const char* api);
uint64_t udma_atomic_compare_swap(void* dst, uint64_t cond, uint64_t value, uint32_t width, int pe,
                                  bool relay_build, const char* api);
void udma_atomic_add_fp32(void* dst, float value, int pe, bool relay_build, const char* api);
// Emulated as upstream does: READ the word into the AMO buffer, quiet, then CAS until it sticks.
enum class AmoEmulated { kSet, kSwap, kAnd, kOr, kXor };
uint64_t udma_atomic_emulated(AmoEmulated op, void* dst, uint64_t value, uint32_t width, int pe, bool relay_build,
                              const char* api);

void* symmetric_ptr(const void* ptr, int pe);
// Every block of every PE arrives (`api`: the call, for hang reports).
void vector_barrier_all(const char* api = "aclshmemx_barrier_all_vec");

}  // namespace symsim::shim
