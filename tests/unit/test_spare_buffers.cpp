// Spare byte buffers (models/memory/spare_buffers.h): the last buffer handed back is taken first
// when it is large enough, a smaller one a little deeper is passed over, and nothing is kept
// beyond the cap.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/memory/spare_buffers.h"

using symsim::SpareBuffers;

namespace {

std::vector<uint8_t> filled(size_t bytes) { return std::vector<uint8_t>(bytes, 0x5a); }

}  // namespace

TEST(SpareBuffers, TheLastBufferHandedBackIsTakenFirstAndComesBackEmpty) {
  SpareBuffers spares(1 << 20);
  std::vector<uint8_t> a = filled(8192), b = filled(8192);
  const uint8_t* b_bytes = b.data();
  spares.give(std::move(a));
  spares.give(std::move(b));
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(spares.kept(), 2u);
  std::vector<uint8_t> got = spares.take(8000);
  EXPECT_EQ(got.data(), b_bytes);  // the same memory, not a copy
  EXPECT_TRUE(got.empty());
  EXPECT_GE(got.capacity(), 8192u);
  EXPECT_EQ(spares.kept(), 1u);
  const size_t kept_bytes = spares.kept_bytes();
  EXPECT_EQ(spares.take(1).capacity(), kept_bytes);
  EXPECT_EQ(spares.kept(), 0u);
  EXPECT_EQ(spares.kept_bytes(), 0u);
}

TEST(SpareBuffers, ASmallerLastBufferIsPassedOverForALargerOneBelowIt) {
  SpareBuffers spares(1 << 20);
  std::vector<uint8_t> large = filled(14336), small = filled(7168);
  const uint8_t* large_bytes = large.data();
  const uint8_t* small_bytes = small.data();
  spares.give(std::move(large));
  spares.give(std::move(small));
  EXPECT_EQ(spares.take(14336).data(), large_bytes);
  EXPECT_EQ(spares.kept(), 1u);
  EXPECT_EQ(spares.take(7168).data(), small_bytes);
  EXPECT_EQ(spares.take(7168).capacity(), 0u);  // none left: the caller allocates
}

TEST(SpareBuffers, NoneLargeEnoughGivesAnUnallocatedBuffer) {
  SpareBuffers spares(1 << 20);
  spares.give(filled(4096));
  const std::vector<uint8_t> got = spares.take(8192);
  EXPECT_EQ(got.capacity(), 0u);
  EXPECT_EQ(spares.kept(), 1u);
}

TEST(SpareBuffers, KeepsNoMoreThanTheCap) {
  SpareBuffers spares(3 * 8192);
  for (int i = 0; i < 10; ++i) spares.give(filled(8192));
  EXPECT_LE(spares.kept_bytes(), 3u * 8192u);
  EXPECT_GE(spares.kept(), 2u);  // capacity may round up: two or three fit
  spares.give(std::vector<uint8_t>());  // an unallocated buffer is not kept
  EXPECT_LE(spares.kept(), 3u);
}
