// Host driver of hazard_cqe_error_unchecked: each PE sends `wqes` blocks to its right
// neighbour, which checks them.
#include "kernels/hazards/common/hazard_host.h"

void launch_cqe_error_unchecked(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_ring_kernel(pe, a, launch_cqe_error_unchecked, "cqe_error_unchecked");
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_cqe_error_unchecked,
                       {"hazard_cqe_error_unchecked", "ascend",
                        "cqe_error_unchecked: a hand-written CQ poller that ignores the status (fixed: traps on it)",
                        {{"wqes", "512 B WQEs per PE", 1, 1e4, 8}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
