// Host driver of hazard_dst_write_race: two QPs per peer; the right neighbour checks the
// whole buffer arrived.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_dst_write_race(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes, uint32_t stagger_ns);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 2 * uint64_t{bytes} + (1u << 20), 2);
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_dst_write_race(a.u64("fixed") != 0, stream, dst, src, bytes, static_cast<uint32_t>(a.u64("stagger_ns")));
  hazard_host::sync(pe, stream, "dst_write_race kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_dst_write_race,
                       {"hazard_dst_write_race", "ascend",
                        "dst_write_race: two QPs put to overlapping remote bytes (fixed: one slice per QP)",
                        {{"bytes", "bytes per PE (split over 2 QPs)", 64, 1 << 20, 65536},
                         {"stagger_ns", "core 1 posts this much later (other work)", 0, 1e6, 0},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        2, host});
