#include "models/nvidia/code_cost.h"

#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

uint64_t g_code_insns = 0;

void charge_code_blocks(CudaThread& t) {
  const uint64_t insns = g_code_insns;
  g_code_insns = 0;
  const auto& p = this_system().params();
  t.local_ps += insns * issue_ps(t, p.sm_code_insn_ns, p.sm_code_insn_slot_ns);
}

}  // namespace symsim::nv
