#include "models/nvidia/code_cost.h"

#include <algorithm>

#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

uint64_t g_code_insns = 0;
uint64_t g_code_divs = 0;
uint64_t g_code_jumps = 0;
double g_code_sass_ns = 0;
uint64_t g_code_sass_insns = 0;

namespace {
// The open begin_store_loop_inner: the host counts at its begin and the SASS's figure of the loop.
// No model call runs between begin and end (the loop is the thread's own arithmetic), so no other
// thread's code is counted meanwhile.
struct InnerLoop {
  bool open = false;
  uint64_t insns = 0, divs = 0, jumps = 0;
  double ns = 0;
  uint64_t sass_insns = 0;
} g_inner;
}  // namespace

void charge_code_blocks(CudaThread& t, bool independent) {
  const uint64_t insns = g_code_insns, divs = g_code_divs, jumps = std::min(g_code_jumps, insns);
  const double sass_ns = g_code_sass_ns;
  const uint64_t sass_insns = g_code_sass_insns;
  g_code_insns = 0, g_code_divs = 0, g_code_jumps = 0, g_code_sass_ns = 0, g_code_sass_insns = 0;
  // Code after a shuffle charged here other than as an unrolled loop's (cta_sync.cpp, warp_op)
  // ends the thread's run of shuffles: an unrolled loop's mark (ptx::unrolled_shuffles) is spent.
  if (t.code_op == kCodeOpShuffle && !(independent && t.unrolled_shuffles)) t.unrolled_shuffles = false;
  const auto& p = this_system().params();
  // One warp alone pays a jump more than an arithmetic instruction (rows code.loop_iter.w1_ns,
  // 4 + 1 jump, and tma_code.load_l2.*, 7 + 1 a loop iteration); warps of one SM share its slots.
  // A loop's independent iterations issue back to back (row code.imad_indep8.w1_ns).
  const double alone_ns = independent ? static_cast<double>(insns) * p.sm_code_indep_insn_ns
                                      : static_cast<double>(insns - jumps) * p.sm_code_insn_ns + static_cast<double>(jumps) * p.sm_code_jump_ns;
  Ps code = issue_ps(t, alone_ns, static_cast<double>(insns) * p.sm_code_insn_slot_ns) + divs * ns_to_ps(p.sm_code_div_ns);
  // Right after a bulk wait_group that waited: the stores' landing time the thread waited out
  // was fitted from probe loops whose own code after each wait is not charged, so it holds
  // up to sm.code_after_bulk_wait_ns of this code (rows tma_store_code.*.n0, tma_sm.store.*).
  // In a bulk-store loop that names its SASS's code (ptx::store_loop_code, sm.store_loop_cycle_ns > 0),
  // a thread that issued one of its stores runs that code, charged at each store (tma.cpp), not
  // the host build's count of the same loop.
  if (t.store_loop_stored && t.store_loop_ns > 0) code = 0;
  const Ps paid = std::min(code, t.code_paid_by_wait_ps);
  code -= paid;
  t.code_paid_by_wait_ps = 0;
  // A nested loop that names its SASS's code (begin_store_loop_inner), charged in full: the wait's
  // credit is the GPU's code from the wait to the next store on the path that skips the loop
  // (sm.code_after_bulk_wait_ns, 87 SASS cycles in mode 28), so the loop's entry and iterations are
  // beyond it (rows tma_store_code.*.n{1..32}: the GPU's round rises by them from n = 1 on).
  if (sass_ns > 0) code += issue_ps(t, sass_ns, static_cast<double>(sass_insns) * p.sm_code_insn_slot_ns);
  if (t.store_loop_ns > 0 && !t.store_loop_stored) t.store_loop_host_ns += static_cast<double>(code) / 1000.0;
  // Code after a data load uses its value (an add, a compare, an address): the warp waits for
  // the load's return before it runs (rows shim.reduce_row.*), then pays the register's
  // write-back to its first use. Of 16 B loads (rows of data) the compiled loop issues its
  // SASS's count (ptx::LoadsBeforeUse), else sm.loads_before_use, before it uses the first:
  // code after fewer runs once they are back, with the next ones' use or the thread's next
  // operation of another kind (rows fresh.plain_load.*, shim.reduce_row.*); a narrower load
  // (a word: an index, a count) is used at once.
  // (At a thread's exit, outside any model call, nothing is left to use them.)
  if (p.sm_code_uses_loads != 0 && t.loads_count != 0 && g_running.thread == &t) {
    t.loads_used = true;
    const double before_use = t.loads_before_use != 0 ? t.loads_before_use : p.sm_loads_before_use;
    if (!t.loads_narrow && t.loads_count < before_use) {
      t.code_after_loads_ps += code;
      return;
    }
    use_loads(t);
  }
  t.local_ps += code + t.code_after_loads_ps;
  t.code_after_loads_ps = 0;
}

void set_store_loop_code(float cycles, std::initializer_list<int> const_waits, std::initializer_list<int> fence_waits, int stores,
                         float pre_cycles) {
  CudaThread* t = g_running.thread;
  if (t == nullptr) return;
  const auto& p = this_system().params();
  t->store_loop_stored = false;
  t->store_loop_ns = 0;
  t->store_loop_pre_ns = 0;
  t->store_loop_host_ns = 0;
  if (p.sm_store_loop_cycle_ns <= 0 || cycles <= 0) return;
  // A wait for a variable-latency result the static count does not hold: what of its latency the
  // cycles since its issue did not cover.
  double exposed = 0;
  for (int d : const_waits) exposed += std::max(0.0, p.sm_store_loop_const_cycles - d);
  for (int d : fence_waits) exposed += std::max(0.0, p.sm_store_loop_fence_cycles - d);
  t->store_loop_ns = static_cast<float>((cycles + exposed / std::max(1, stores)) * p.sm_store_loop_cycle_ns);
  // The head-to-first-store path waits the same constant load and MEMBAR once (its store is the first).
  if (p.sm_store_loop_first_store_head > 0 && pre_cycles > 0)
    t->store_loop_pre_ns = static_cast<float>((pre_cycles + exposed) * p.sm_store_loop_cycle_ns);
}

void begin_store_loop_inner(float cycles, int insns, float entry_cycles, int entry_insns, int iterations) {
  g_inner = {};
  if (g_running.thread == nullptr) return;
  const auto& p = this_system().params();
  // n = 0: the SASS's guard branch skips entry and loop, on the store loop's own path; the host
  // build runs its own guard only, counted as the rest of that path's code: nothing to replace.
  if (p.sm_store_loop_cycle_ns <= 0 || iterations <= 0) return;
  g_inner.open = true;
  g_inner.insns = g_code_insns, g_inner.divs = g_code_divs, g_inner.jumps = g_code_jumps;
  g_inner.ns = (entry_cycles + static_cast<double>(iterations) * cycles) * p.sm_store_loop_cycle_ns;
  g_inner.sass_insns = static_cast<uint64_t>(entry_insns) + static_cast<uint64_t>(iterations) * static_cast<uint64_t>(insns);
}

void end_store_loop_inner() {
  if (!g_inner.open) return;
  // The host count since begin is the loop's (and the two calls'): dropped for the SASS's figure.
  g_code_insns = std::min(g_code_insns, g_inner.insns);
  g_code_divs = std::min(g_code_divs, g_inner.divs);
  g_code_jumps = std::min(g_code_jumps, g_inner.jumps);
  g_code_sass_ns += g_inner.ns;
  g_code_sass_insns += g_inner.sass_insns;
  g_inner = {};
}

void set_unrolled_shuffles(bool on) noexcept {
  if (CudaThread* t = g_running.thread) t->unrolled_shuffles = on;
}

uint8_t swap_loads_before_use(uint8_t n) {
  CudaThread* t = g_running.thread;
  if (t == nullptr) return 0;
  const uint8_t had = t->loads_before_use;
  t->loads_before_use = n;
  return had;
}

}  // namespace symsim::nv
