// Host driver of hazard_src_reuse_before_completion: `rounds` slices per PE, each with its own
// pattern, land in the right neighbour's buffer; every slice is checked.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_src_reuse(bool fixed, void* stream, uint8_t* dst, uint8_t* sendbuf, uint8_t* input, uint32_t bytes,
                      uint32_t rounds, uint32_t work);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  const auto rounds = static_cast<uint32_t>(a.u64("rounds"));
  const uint64_t total = uint64_t{bytes} * rounds;
  aclrtStream stream = hazard_host::setup(pe, 2 * total + bytes + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, total));
  auto* sendbuf = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* input = static_cast<uint8_t*>(aclshmem_malloc(total));
  for (uint32_t r = 0; r < rounds; ++r) hazard_host::fill(input + uint64_t{r} * bytes, bytes, pe, r);
  aclshmem_barrier_all();
  launch_src_reuse(a.u64("fixed") != 0, stream, dst, sendbuf, input, bytes, rounds,
                   static_cast<uint32_t>(a.u64("work")));
  hazard_host::sync(pe, stream, "src_reuse kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  for (uint32_t r = 0; r < rounds; ++r)
    hazard_host::check_pattern(pe, dst + uint64_t{r} * bytes, bytes, from, r, fmt::format("round {} from pe {}", r, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_src_reuse_before_completion,
                       {"hazard_src_reuse_before_completion", "ascend",
                        "src_reuse_before_completion: a send buffer repacked before its put completed (fixed: quiet)",
                        {{"bytes", "bytes per round (a multiple of 32)", 32, 65536, 16384},
                         {"rounds", "rounds", 1, 1000, 4},
                         {"work", "32 B reload-and-stores between a put and the repack (other work)", 0, 10000, 0},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
