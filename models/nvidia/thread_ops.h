// What the running CUDA thread's instructions do on the models: loads, stores and atomics to
// shared memory (immediate), to its own GPU's memory and to NVLink peers (timed, ordered by
// mem_order.h), doorbell stores to the NIC; fences; CTA barriers and warp collectives; TMA bulk
// copies and mbarriers; clock64. The CUDA shim turns CUDA and PTX-style syntax into these.
#pragma once
#include <cstdint>

#include "models/core/time.h"
#include "models/nvidia/code_cost.h"
#include "models/nvidia/cuda_thread.h"
#include "models/nvidia/current_system.h"
#include "models/nvidia/mem_order.h"

namespace symsim::nv {

class NvidiaSystem;
class GpuScheduler;

// Where in the kernel source an instruction is (hazard and hang reports).
struct Site {
  const char* file = nullptr;
  int line = 0;
  // As a default argument, the caller's file and line.
  static constexpr Site here(const char* f = __builtin_FILE(), int l = __builtin_LINE()) { return {f, l}; }
};

enum class AtomicOp : uint8_t { Add, Sub, Exch, Cas, Max, Min, And, Or, Xor, Inc, Dec };
enum class AtomicType : uint8_t { U32, S32, U64, S64, F32, F64 };

enum class WarpOp : uint8_t { Sync, ShflIdx, ShflUp, ShflDown, ShflXor, Ballot, Any, All, ReduceAdd };

// The running thread, its GPU's scheduler, the platform (throw outside a kernel).
[[noreturn]] void throw_outside_kernel();
inline CudaThread& this_thread() {
  CudaThread* t = g_running.thread;
  if (!t) throw_outside_kernel();
  if (g_code_insns != 0) charge_code_blocks(*t);  // kernel code run since the last shim call
  t->code_paid_by_wait_ps = 0;  // only the code right after a bulk wait (sm.code_after_bulk_wait_ns)
  t->code_op = kCodeOpOther;    // a plain store or data load sets its kind when it is done
  return *t;
}
// The same at the start of an operation of kind `op`: the code since the thread's last
// operation is independent when that one was of the same kind (sm.code_indep_insn_ns).
inline CudaThread& this_thread_at(CodeOp op) {
  CudaThread* t = g_running.thread;
  if (!t) throw_outside_kernel();
  if (g_code_insns != 0) charge_code_blocks(*t, op != kCodeOpOther && t->code_op == op);
  t->code_paid_by_wait_ps = 0;
  t->code_op = kCodeOpOther;
  return *t;
}
inline NvidiaSystem& this_system() { return *current_system(); }
inline GpuScheduler& this_scheduler() { return *this_thread().cta->scheduler; }

// Plain work: `ops` shim operations' worth of time.
void work(double ops);

// An operation that takes `latency_ns` for one warp alone while the SM gives each warp
// instruction `slot_ns` of its issue: with the CTA's warps all issuing, a warp's turn comes
// every warps x slot_ns (docs/hw-calibration.md, code.*.wN rows).
Ps issue_ps(const CudaThread& t, double latency_ns, double slot_ns);
Ps issue_ps(uint32_t threads_per_cta, double latency_ns, double slot_ns);

void load(void* out, const void* addr, uint32_t bytes, Sem sem, Scope scope, Site site);
void store(void* addr, const void* value, uint32_t bytes, Sem sem, Scope scope, Site site);
// Returns the old value (when want_result; otherwise the thread does not wait for it).
uint64_t atomic(void* addr, AtomicOp op, AtomicType type, uint64_t operand, uint64_t compare, Sem sem, Scope scope,
                bool want_result, Site site);
// fence.acq_rel / fence.sc at `scope` (sem: AcqRel or Sc).
void fence(Sem sem, Scope scope, Site site);

// bar.sync `id` with `count` threads (0: the whole CTA) = __syncthreads for id 0.
void cta_barrier(uint32_t id, uint32_t count, Site site);
uint64_t warp_op(WarpOp op, uint32_t mask, uint64_t value, uint32_t arg, uint32_t width, Site site);
// The thread's next __syncwarp is one its loop's SASS runs as WARPSYNC.ALL after a divergent
// branch (ptx::syncwarp_all; cta_sync.cpp). No code is charged here.
void next_syncwarp_all();
// Lanes of the calling warp that have not exited.
uint32_t live_lanes();
// fence.mbarrier_init.release.cluster: the thread's mbarrier inits made visible (sm.mbar_init_fence_ns).
void mbar_init_fence();

// TMA (cp.async.bulk): a 1D load global -> shared completing `bytes` on an mbarrier, and a
// 1D store shared -> global in the thread's current bulk group.
void tma_load(void* smem_dst, const void* gmem_src, uint32_t bytes, void* mbar, Site site);
void tma_store(void* gmem_dst, const void* smem_src, uint32_t bytes, Site site);
void tma_commit();
// Waits until at most `pending` bulk groups of this thread are in flight.
void tma_wait(uint32_t pending, Site site);

void mbar_init(void* mbar, uint32_t count);
// Arrives `count` times, first adding `tx_bytes` to the phase's expected transaction bytes.
void mbar_arrive(void* mbar, uint32_t count, uint32_t tx_bytes, Site site);
void mbar_expect_tx(void* mbar, uint32_t tx_bytes);
// True when the phase of parity `parity` has completed (mbarrier.try_wait.parity).
bool mbar_test(void* mbar, uint32_t parity, Site site);
void mbar_wait(void* mbar, uint32_t parity, Site site);

uint64_t clock64();
void nanosleep(uint32_t ns);
[[noreturn]] void trap(const char* why);

// The thread uses what it loaded: waits until its data loads in flight and its last returning
// atomic's result have returned (every operation other than a load does this first).
void use_loads(CudaThread& t);
// ... its data loads only (a strong load of the word its last atomic changed: a poll behind it).
void use_data_loads(CudaThread& t);

// Drops the thread's tracked writes that have landed by now (keeps its lists short).
void prune_landed(CudaThread& t);

// True when p lies in the running CTA's shared memory.
bool in_shared(const void* p, uint64_t bytes);

}  // namespace symsim::nv
