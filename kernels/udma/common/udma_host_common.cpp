#include "kernels/udma/common/udma_host_common.h"

#include "kernels/common/test_pattern.h"

namespace udma_example {

void fill_pattern(uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  kernel_host::fill_pattern(pattern_byte, device, bytes, pe, round);
}

std::string compare_pattern(const uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  return kernel_host::compare_pattern(pattern_byte, device, bytes, pe, round);
}

}  // namespace udma_example
