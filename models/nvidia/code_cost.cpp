#include "models/nvidia/code_cost.h"

#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

uint64_t g_code_insns = 0;
uint64_t g_code_divs = 0;

void charge_code_blocks(CudaThread& t) {
  const uint64_t insns = g_code_insns, divs = g_code_divs;
  g_code_insns = 0, g_code_divs = 0;
  const auto& p = this_system().params();
  // Code after a data load uses its value (an add, a compare, an address): the warp waits for
  // the load's return before it runs (rows shim.reduce_row.*), then pays the register's
  // write-back to its first use.
  // (At a thread's exit, outside any model call, nothing is left to use them.)
  if (p.sm_code_uses_loads != 0 && t.loads_count != 0 && g_running.thread == &t) {
    use_loads(t);
    this_scheduler().advance(t, ns_to_ps(p.sm_load_use_ns));
  }
  t.local_ps += insns * issue_ps(t, p.sm_code_insn_ns, p.sm_code_insn_slot_ns) + divs * ns_to_ps(p.sm_code_div_ns);
}

}  // namespace symsim::nv
