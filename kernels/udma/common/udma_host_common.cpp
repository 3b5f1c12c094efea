#include "kernels/udma/common/udma_host_common.h"

#include <fmt/format.h>

#include <stdexcept>

namespace udma_example {

void fill_pattern(uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  std::vector<uint8_t> host(bytes);
  for (uint64_t i = 0; i < bytes; ++i) host[i] = pattern_byte(pe, round, i);
  aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

std::string compare_pattern(const uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  std::vector<uint8_t> host(bytes);
  aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  uint64_t wrong = 0, first = 0;
  for (uint64_t i = 0; i < bytes; ++i)
    if (host[i] != pattern_byte(pe, round, i) && wrong++ == 0) first = i;
  if (wrong == 0) return "";
  return fmt::format("{} of {} bytes differ; first at offset {}: {:#04x}, expected {:#04x}", wrong, bytes, first,
                     host[first], pattern_byte(pe, round, first));
}

}  // namespace udma_example
