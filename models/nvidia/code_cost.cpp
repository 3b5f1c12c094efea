#include "models/nvidia/code_cost.h"

#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

uint64_t g_code_blocks = 0;

void charge_code_blocks(CudaThread& t) {
  const uint64_t blocks = g_code_blocks;
  g_code_blocks = 0;
  const auto& p = this_system().params();
  t.local_ps += blocks * issue_ps(t, p.sm_code_block_ns, p.sm_code_block_slot_ns);
}

}  // namespace symsim::nv
