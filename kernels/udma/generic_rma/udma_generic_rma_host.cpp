// Host driver of udma_generic_rma: each PE's `src` holds its pattern; PE 1 checks what PE 0's
// generic puts wrote (and that the gaps between them stayed zero), PE 0 what its gets read.
#include <fmt/format.h>

#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_generic_rma(void* stream, uint8_t* dst, uint8_t* src, uint8_t* got);

namespace {

constexpr uint32_t kBytes = 8192;

struct Region {
  uint32_t begin, end;
  const char* call;
};

void udma_generic_rma_host(int pe, const symsim::KernelArgs&) {
  aclrtStream stream = udma_example::setup(pe, 4u << 20, 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, kBytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(kBytes));
  auto* got = static_cast<uint8_t*>(aclshmem_calloc(1, kBytes));
  udma_example::fill_pattern(src, kBytes, pe, 0);
  const int bad = aclshmemx_set_udma_config(0, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE - 1, 0);
  symsim::check(bad == ACLSHMEM_INVALID_VALUE, fmt::format("pe {}: a staging buffer under 128 B is refused", pe),
                fmt::format("returned {}", bad));
  aclshmemx_set_udma_config(0, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE, 0);
  aclshmem_barrier_all();

  launch_udma_generic_rma(stream, dst, src, got);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_generic_rma_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  const int peer = 1 - pe;
  const std::vector<Region> regions =
      pe == 1 ? std::vector<Region>{{0, 1000, "aclshmem_putmem"},
                                    {1024, 2048, "aclshmem_int32_put_nbi"},
                                    {2048, 3072, "aclshmem_put64_nbi"},
                                    {3072, 3328, "aclshmem_float_put (GlobalTensor)"},
                                    {4096, 4608, "aclshmem_putmem_nbi after aclshmemx_set_udma_config"},
                                    {5120, 5632, "aclshmem_putmem_signal"}}
              : std::vector<Region>{{0, 512, "aclshmem_getmem"},
                                    {512, 1024, "aclshmem_uint16_get_nbi"},
                                    {1024, 1536, "aclshmem_get128_nbi"},
                                    {1536, 2048, "aclshmem_char_get (GlobalTensor)"}};
  std::vector<uint8_t> bytes(kBytes);
  aclrtMemcpy(bytes.data(), kBytes, pe == 1 ? dst : got, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  uint32_t covered = 0;
  for (const Region& r : regions) {
    std::string diff;
    for (uint32_t i = r.begin; i < r.end && diff.empty(); ++i)
      if (bytes[i] != udma_example::pattern_byte(peer, 0, i))
        diff = fmt::format("byte {} is {:#x}, want {:#x}", i, bytes[i], udma_example::pattern_byte(peer, 0, i));
    symsim::check(diff.empty(), fmt::format("pe {}: {} moved bytes {}..{}", pe, r.call, r.begin, r.end - 1), diff);
    covered = r.end;
  }
  uint32_t stray = 0;
  for (uint32_t i = 0; i < kBytes; ++i) {
    bool inside = false;
    for (const Region& r : regions) inside = inside || (i >= r.begin && i < r.end);
    if (!inside && bytes[i] != 0) ++stray;
  }
  symsim::check(stray == 0, fmt::format("pe {}: nothing landed outside the {} regions (up to {})", pe, regions.size(),
                                        covered),
                fmt::format("{} stray bytes", stray));
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_generic_rma,
                       {"udma_generic_rma", "ascend",
                        "PE 0 puts to and gets from PE 1 with the generic aclshmem_putmem/getmem, <T>_put/get, "
                        "put<BITS>/get<BITS> calls (pointer and GlobalTensor forms), routed to UDMA",
                        {},
                        1, udma_generic_rma_host});
