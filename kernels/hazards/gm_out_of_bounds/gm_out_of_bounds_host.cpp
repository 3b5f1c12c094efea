// Host driver of hazard_gm_out_of_bounds: a `bytes` record to the right neighbour, checked.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_gm_out_of_bounds(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 4 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_gm_out_of_bounds(a.u64("fixed") != 0, stream, dst, src, bytes);
  hazard_host::sync(pe, stream, "gm_out_of_bounds kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_gm_out_of_bounds,
                       {"hazard_gm_out_of_bounds", "ascend",
                        "gm_out_of_bounds: a put's length rounded up to 512 B past its buffers (fixed: exact length)",
                        {{"bytes", "record bytes", 1, 1 << 20, 1000}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
