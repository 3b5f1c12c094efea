// Host driver of hazard_qp_multi_producer: two cores x `wqes` blocks per PE to the right
// neighbour, which checks them all.
#include "../common/hazard_host.h"

void launch_qp_multi_producer(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  hazard_host::run_ring_kernel(pe, a, launch_qp_multi_producer, "qp_multi_producer", 2);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_qp_multi_producer,
                       {"hazard_qp_multi_producer", "ascend",
                        "qp_multi_producer: two cores post to one QP without atomic head reservation (fixed: a QP each)",
                        {{"wqes", "512 B WQEs per core", 1, 1e4, 32}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        2, host});
