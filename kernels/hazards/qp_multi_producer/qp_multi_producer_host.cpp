// Host driver of hazard_qp_multi_producer: two cores x `wqes` blocks per PE to the right
// neighbour, which checks them all.
#include "kernels/hazards/common/hazard_host.h"

void launch_qp_multi_producer(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes,
                              uint32_t stagger_ns);

namespace {

uint32_t g_stagger_ns = 0;  // the scenario's stagger_ns (the same on every PE)

void launch(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes) {
  launch_qp_multi_producer(fixed, stream, tables, dst, src, wqes, g_stagger_ns);
}

void host(int pe, const symsim::KernelArgs& a) {
  g_stagger_ns = static_cast<uint32_t>(a.u64("stagger_ns"));
  hazard_host::run_ring_kernel(pe, a, launch, "qp_multi_producer", 2);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_qp_multi_producer,
                       {"hazard_qp_multi_producer", "ascend",
                        "qp_multi_producer: two cores post to one QP without atomic head reservation (fixed: a QP each)",
                        {{"wqes", "512 B WQEs per core", 1, 1e4, 32},
                         {"stagger_ns", "core 1 starts this much later (other work)", 0, 1e6, 0},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        2, host});
