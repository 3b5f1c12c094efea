// Host driver of hazard_doorbell_regression: each PE sends `wqes` blocks to its right
// neighbour, which checks them all.
#include "kernels/hazards/common/hazard_host.h"

void launch_doorbell_regression(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_ring_kernel(pe, a, launch_doorbell_regression, "doorbell_regression");
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_doorbell_regression,
                       {"hazard_doorbell_regression", "ascend",
                        "doorbell_regression: the doorbell rung with head % depth, which wraps back (fixed: unmasked)",
                        {{"wqes", "512 B WQEs per PE", 1, 1e5, 100}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
