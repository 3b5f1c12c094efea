// Host driver of hazard_sq_overrun: each PE sends `wqes` 512 B blocks to its right neighbour,
// which checks every block arrived.
#include "kernels/hazards/common/hazard_host.h"

void launch_sq_overrun(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_ring_kernel(pe, a, launch_sq_overrun, "sq_overrun");
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_sq_overrun,
                       {"hazard_sq_overrun", "ascend",
                        "sq_overrun: WQEs written by hand in one batch larger than the SQ (fixed: credit check)",
                        {{"wqes", "512 B WQEs per PE", 1, 1e6, 100}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
