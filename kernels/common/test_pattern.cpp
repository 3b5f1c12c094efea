#include "kernels/common/test_pattern.h"

#include <fmt/format.h>

#include <vector>

#include "acl/acl.h"

namespace kernel_host {

void fill_pattern(PatternByte byte_at, uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  std::vector<uint8_t> host(bytes);
  for (uint64_t i = 0; i < bytes; ++i) host[i] = byte_at(pe, round, i);
  aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

std::string compare_pattern(PatternByte byte_at, const uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  std::vector<uint8_t> host(bytes);
  aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  uint64_t wrong = 0, first = 0;
  for (uint64_t i = 0; i < bytes; ++i)
    if (host[i] != byte_at(pe, round, i) && wrong++ == 0) first = i;
  if (wrong == 0) return "";
  return fmt::format("{} of {} bytes differ; first at offset {}: {:#04x}, expected {:#04x}", wrong, bytes, first,
                     host[first], byte_at(pe, round, first));
}

}  // namespace kernel_host
