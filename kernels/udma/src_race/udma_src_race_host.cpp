// Host driver of udma_src_race: PE 0's source holds pattern round 0, `fresh` round 1. For path
// 3 the host copies round 1 over the source while the put is in flight. PE 1 then records, for
// each 512 B unit it received, whether it holds the old bytes ('o'), the new ones ('n') or
// anything else ('x'); the check passes when no unit is torn or foreign.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_src_race(void* stream, uint8_t* dst, uint8_t* src, uint8_t* fresh, uint32_t bytes, uint32_t path,
                          uint32_t delay_ns);

namespace {

constexpr uint32_t kUnitBytes = 512;

// 'o', 'n' or 'x' for each unit of `got` (the received bytes of PE 0's source).
std::string classify(const std::vector<uint8_t>& got) {
  std::string units;
  for (uint64_t u = 0; u * kUnitBytes < got.size(); ++u) {
    bool old_bytes = true, new_bytes = true;
    for (uint64_t i = u * kUnitBytes; i < std::min<uint64_t>(got.size(), (u + 1) * kUnitBytes); ++i) {
      old_bytes = old_bytes && got[i] == udma_example::pattern_byte(0, 0, i);
      new_bytes = new_bytes && got[i] == udma_example::pattern_byte(0, 1, i);
    }
    units += old_bytes ? 'o' : new_bytes ? 'n' : 'x';
  }
  return units;
}

void udma_src_race_host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  const auto path = static_cast<uint32_t>(a.u64("path"));
  aclrtStream stream = udma_example::setup(pe, 4 * uint64_t{bytes} + (4u << 20), 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* fresh = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  udma_example::fill_pattern(src, bytes, 0, 0);
  udma_example::fill_pattern(fresh, bytes, 0, 1);
  std::vector<uint8_t> fresh_host(bytes);
  for (uint32_t i = 0; i < bytes; ++i) fresh_host[i] = udma_example::pattern_byte(0, 1, i);
  aclshmem_barrier_all();

  launch_udma_src_race(stream, dst, src, fresh, bytes, path, static_cast<uint32_t>(a.u64("delay_ns")));
  if (pe == 0 && path == 3) aclrtMemcpy(src, bytes, fresh_host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_src_race_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  if (pe == 1) {
    std::vector<uint8_t> got(bytes);
    aclrtMemcpy(got.data(), bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    const std::string units = classify(got);
    symsim::check(units.find('x') == std::string::npos, "pe 1: every unit holds PE 0's old or new bytes", units);
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_src_race,
                       {"udma_src_race", "ascend",
                        "PE 0 rewrites a put's source while the put is in flight (MTE3 copy, scalar stores + dcci, "
                        "st_dev or a host copy); each unit PE 1 receives is the source as it was when it was read",
                        {{"bytes", "bytes put (a multiple of 512)", 512, 65536, 65536},
                         {"path",
                          "0 MTE3 copy, 1 scalar stores + dcci, 2 st_dev, 3 host copy, 4 aclshmemx_mte_put_nbi "
                          "(GlobalTensor form: nested shim calls)",
                          0, 4, 0},
                         {"delay_ns", "rewrite this long after the post (path 3: post this long after the start)", 0,
                          1000000, 20000}},
                        1, udma_src_race_host});
