// Host driver of hazard_relay_unreachable: each PE puts `bytes` to its right neighbour, which checks them.
#include <fmt/format.h>

#include "../common/hazard_host.h"

void launch_relay_unreachable(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 2 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_relay_unreachable(a.u64("fixed") != 0, stream, hazard_host::udma_tables(), dst, src, bytes);
  hazard_host::sync(pe, stream, "relay_unreachable kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_relay_unreachable,
                       {"hazard_relay_unreachable", "ascend",
                        "relay_unreachable: a WQE on the QP toward one PE carrying another PE's endpoint id (fixed: its own row)",
                        {{"bytes", "bytes per PE", 1, 1 << 20, 4096}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
