// Host driver of hazard_torn_wqe: each PE sends `bytes` to its right neighbour, which checks
// them.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_torn_wqe(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* sendbuf, uint8_t* input,
                     uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 3 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* sendbuf = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* input = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  hazard_host::fill(input, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_torn_wqe(a.u64("fixed") != 0, stream, hazard_host::udma_tables(), dst, sendbuf, input, bytes);
  hazard_host::sync(pe, stream, "torn_wqe kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_torn_wqe,
                       {"hazard_torn_wqe", "ascend",
                        "torn_wqe: doorbell rung before the MTE3 copy of the WQE completed (fixed: MTE3_S flag pair)",
                        {{"bytes", "payload bytes (a multiple of 32)", 32, 65536, 32768},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
