// Host driver of hazard_token_mismatch: each PE puts `bytes` to its right neighbour, which checks them.
#include "kernels/hazards/common/hazard_host.h"

void launch_token_mismatch(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_neighbour_put(pe, a, launch_token_mismatch, "token_mismatch");
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_token_mismatch,
                       {"hazard_token_mismatch", "ascend",
                        "token_mismatch: a hand-written WQE with token 0 where the memory requires a token (fixed: rmt_token_value)",
                        {{"bytes", "bytes per PE", 1, 1 << 20, 4096}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
