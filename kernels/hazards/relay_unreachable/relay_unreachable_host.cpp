// Host driver of hazard_relay_unreachable: each PE puts `bytes` to its right neighbour, which checks them.
#include "kernels/hazards/common/hazard_host.h"

void launch_relay_unreachable(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_neighbour_put(pe, a, launch_relay_unreachable, "relay_unreachable");
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_relay_unreachable,
                       {"hazard_relay_unreachable", "ascend",
                        "relay_unreachable: a WQE on the QP toward one PE carrying another PE's endpoint id (fixed: its own row)",
                        {{"bytes", "bytes per PE", 1, 1 << 20, 4096}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
