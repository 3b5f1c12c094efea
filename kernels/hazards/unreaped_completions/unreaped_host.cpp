// Host driver of hazard_unreaped_completions: `puts` slices to the right neighbour, checked.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_unreaped(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes, uint32_t puts);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 2 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_unreaped(a.u64("fixed") != 0, stream, dst, src, bytes, static_cast<uint32_t>(a.u64("puts")));
  hazard_host::sync(pe, stream, "unreaped kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_unreaped_completions,
                       {"hazard_unreaped_completions", "ascend",
                        "unreaped_completions: puts whose CQEs are never polled (fixed: quiet before the end)",
                        {{"bytes", "bytes per PE", 64, 1 << 20, 16384},
                         {"puts", "puts per PE", 1, 64, 4},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
