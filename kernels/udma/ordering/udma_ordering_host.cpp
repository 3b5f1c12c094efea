// Host driver of udma_ordering: PE 1's word must end at `count` when the mode keeps the order
// (SO, fence); with NO or RO it may end at any of the values written, and the check records
// which.
#include <fmt/format.h>

#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_ordering(uint32_t block_dim, void* stream, uint8_t* word, uint8_t* values, uint32_t count,
                          uint32_t mode);

namespace {

void udma_ordering_host(int pe, const symsim::KernelArgs& a) {
  const auto count = static_cast<uint32_t>(a.u64("count"));
  const auto mode = static_cast<uint32_t>(a.u64("mode"));
  aclrtStream stream = udma_example::setup(pe, 4u << 20, 1);
  auto* word = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  auto* values = static_cast<uint8_t*>(aclshmem_malloc(count * sizeof(uint64_t)));
  std::vector<uint64_t> v(count);
  for (uint32_t i = 0; i < count; ++i) v[i] = i + 1;
  aclrtMemcpy(values, count * 8, v.data(), count * 8, ACL_MEMCPY_HOST_TO_DEVICE);
  aclshmem_barrier_all();

  launch_udma_ordering(1, stream, word, values, count, mode);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_ordering_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  if (pe == 1) {
    uint64_t last = 0;
    aclrtMemcpy(&last, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    static const char* const names[] = {"NO", "RO", "SO", "NO + fence"};
    if (mode >= 2) {
      symsim::check(last == count, fmt::format("pe 1: with {} ordering the last of {} writes landed last", names[mode],
                                               count),
                    fmt::format("the word holds {}", last));
    } else {
      symsim::check(last >= 1 && last <= count,
                    fmt::format("pe 1: with {} ordering the word holds one of the {} values written", names[mode], count),
                    fmt::format("the word holds {}{}", last, last == count ? "" : " (a later write landed earlier)"));
    }
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_ordering,
                       {"udma_ordering", "ascend",
                        "PE 0 writes 1..count into one word of PE 1 in one batch with NO / RO / SO ordering or a fence; "
                        "SO and fence keep the order",
                        {{"count", "writes (WQEs) in the batch", 2, 2048, 64},
                         {"mode", "0 NO, 1 RO, 2 SO, 3 NO with fence", 0, 3, 2}},
                        1, udma_ordering_host});
