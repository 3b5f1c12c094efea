// Host driver of udma_get: the data read must be the right neighbour's pattern.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_get(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint64_t rounds);

namespace {

void udma_get_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  aclrtStream stream = udma_example::setup(pe, 2 * bytes + (4u << 20), 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  udma_example::fill_pattern(src, bytes, pe, 0);
  aclrtMemset(dst, bytes, 0, bytes);
  aclshmem_barrier_all();
  launch_udma_get(1, stream, dst, src, bytes, a.u64("rounds"));
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_get_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  const int from = (pe + 1) % aclshmem_n_pes();
  const std::string diff = udma_example::compare_pattern(dst, bytes, from, 0);
  symsim::check(diff.empty(), fmt::format("pe {}: {} bytes read from pe {} match", pe, bytes, from), diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_get, {"udma_get", "ascend", "get_nbi from the right neighbour, then quiet",
                                  {{"bytes", "bytes per get", 1, 256.0 * (1 << 20), 4096},
                                   {"rounds", "gets", 1, 1e8, 1}},
                                  1, udma_get_host});
