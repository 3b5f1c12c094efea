// The harnesses' check buffer (kernels/nvlink/common/host_check_buffer.h): a small one from the
// heap, a large one mapped on its own; both hold what is written into every byte.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/nvlink/common/host_check_buffer.h"

using symsim::harness::HostCheckBuffer;

namespace {

void fill_and_check(HostCheckBuffer& b) {
  for (size_t i = 0; i < b.size(); ++i) b.data()[i] = static_cast<uint8_t>(i * 7);
  for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b.data()[i], static_cast<uint8_t>(i * 7)) << i;
}

}  // namespace

TEST(HostCheckBuffer, SmallAndLargeHoldEveryByte) {
  HostCheckBuffer small(HostCheckBuffer::kMapFromBytes - 1);
  HostCheckBuffer large(HostCheckBuffer::kMapFromBytes + 4096 + 13);
  EXPECT_EQ(small.size(), HostCheckBuffer::kMapFromBytes - 1);
  EXPECT_EQ(large.size(), HostCheckBuffer::kMapFromBytes + 4096 + 13);
  fill_and_check(small);
  fill_and_check(large);
}

TEST(HostCheckBuffer, EmptyIsAllowed) {
  HostCheckBuffer none(0);
  EXPECT_EQ(none.size(), 0u);
}
