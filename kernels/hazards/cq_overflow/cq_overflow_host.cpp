// Host driver of hazard_cq_overflow: `launches` launches of the same dispatch, each sending a
// fresh pattern to its own slice of the right neighbour's buffer; every slice is checked.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_cq_overflow(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto wqes = static_cast<uint32_t>(a.u64("wqes"));
  const uint64_t launches = a.u64("launches");
  const uint64_t bytes = uint64_t{wqes} * 512;
  aclrtStream stream = hazard_host::setup(pe, (launches + 1) * bytes + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(launches, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  const bool fixed = a.u64("fixed") != 0;
  for (uint64_t l = 0; l < launches; ++l) {
    hazard_host::fill(src, bytes, pe, l);
    aclshmem_barrier_all();
    launch_cq_overflow(fixed, stream, hazard_host::udma_tables(), dst + l * bytes, src, wqes);
    hazard_host::sync(pe, stream, fmt::format("cq_overflow kernel (launch {})", l));
    aclshmem_barrier_all();
  }
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  for (uint64_t l = 0; l < launches; ++l)
    hazard_host::check_pattern(pe, dst + l * bytes, bytes, from, l, fmt::format("launch {}: data from pe {} arrived", l, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_cq_overflow,
                       {"hazard_cq_overflow", "ascend",
                        "cq_overflow: CQEs requested and never polled over repeated launches (fixed: reap per launch)",
                        {{"wqes", "512 B WQEs per launch", 1, 1e6, 64},
                         {"launches", "kernel launches", 1, 1000, 3},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
