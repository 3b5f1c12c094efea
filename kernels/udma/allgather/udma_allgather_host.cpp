// Host driver of udma_allgather: after the kernel every PE holds every PE's slice.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_allgather(uint32_t block_dim, void* stream, uint8_t* gva, uint64_t bytes);

namespace {

// The symmetric heap one PE asks for and writes (declared below for validation and the memory estimate).
symsim::KernelHeap heap_bytes(const symsim::KernelArgs& a, int pes) {
  const uint64_t data = a.u64("bytes") * static_cast<uint64_t>(pes);
  return {data + (4u << 20), data};
}

void udma_allgather_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const int n = aclshmem_n_pes();
  aclrtStream stream = udma_example::setup(pe, heap_bytes(a, aclshmem_n_pes()).reserved_bytes, 1);
  auto* gva = static_cast<uint8_t*>(aclshmem_malloc(bytes * n));
  aclrtMemset(gva, bytes * n, 0, bytes * n);
  udma_example::fill_pattern(gva + bytes * pe, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_udma_allgather(1, stream, gva, bytes);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_allgather_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  std::string diff;
  for (int from = 0; from < n && diff.empty(); ++from) {
    diff = udma_example::compare_pattern(gva + bytes * from, bytes, from, 0);
    if (!diff.empty()) diff = fmt::format("slice of pe {}: {}", from, diff);
  }
  symsim::check(diff.empty(), fmt::format("pe {}: all {} slices of {} bytes present", pe, n, bytes), diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_allgather, {"udma_allgather", "ascend",
                                        "every PE puts its slice to every other PE (CANN udma demo style)",
                                        {{"bytes", "slice bytes per PE", 1, 64.0 * (1 << 20), 4096}},
                                        1, udma_allgather_host});
SYMSIM_REGISTER_KERNEL_HEAP(udma_allgather, heap_bytes);
