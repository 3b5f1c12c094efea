// Private allocations sit where the GPU's driver puts them: a large cudaMalloc window starts on a
// 2 MiB page of the device's offsets, so its address bits 12-20 are the GPU's (s28-part).
#include <gtest/gtest.h>

#include "models/nvidia/device_memory.h"

namespace {

using symsim::nv::DeviceMemory;

uint64_t offset(const DeviceMemory& m, const void* p) {
  return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - m.base(0));
}

// The H200 preset's 141 GB: the heap's end is 256 B past a 2 MiB page (0x107220a100).
TEST(DeviceMemory, LargePrivateAllocationsStartOnA2MiBPage) {
  DeviceMemory m(1, 141000000000ull);
  const uint8_t* small = m.private_alloc(0, 4096, 256);
  const uint8_t* window = m.private_alloc(0, uint64_t{16} << 20, DeviceMemory::kLargeAllocAlign);
  EXPECT_EQ(offset(m, small) % DeviceMemory::kLargeAllocAlign, 0u);
  EXPECT_EQ(offset(m, window) % DeviceMemory::kLargeAllocAlign, 0u);
  EXPECT_EQ(window - small, static_cast<std::ptrdiff_t>(DeviceMemory::kLargeAllocAlign));
  EXPECT_EQ(m.name(window), "gpu0.dev+0x200000");
}

}  // namespace
