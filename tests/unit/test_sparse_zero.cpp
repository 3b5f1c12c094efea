// SparseRegion::is_zero: a page-at-a-time comparison with zeros (session 29) finds a single
// non-zero byte wherever it lies: first, last, either side of a page boundary, in a short tail.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/memory/sparse_region.h"

using symsim::SparseRegion;

TEST(SparseZero, FindsOneNonZeroByteAnywhere) {
  constexpr uint64_t kPage = SparseRegion::kHostPageBytes;
  for (const uint64_t len : {uint64_t{0}, uint64_t{1}, uint64_t{31}, uint64_t{512}, kPage - 1, kPage, kPage + 1,
                             3 * kPage + 100}) {
    std::vector<uint8_t> bytes(len + 2, 0);
    const uint8_t* p = bytes.data() + 1;  // unaligned, as a slot inside a page may be
    EXPECT_TRUE(SparseRegion::is_zero(p, len)) << len;
    bytes[0] = bytes[len + 1] = 7;  // outside the range: not looked at
    EXPECT_TRUE(SparseRegion::is_zero(p, len)) << len;
    for (const uint64_t at : {uint64_t{0}, kPage - 1, kPage, len / 2, len - 1}) {
      if (at >= len) continue;
      bytes[1 + at] = 0x80;
      EXPECT_FALSE(SparseRegion::is_zero(p, len)) << len << " " << at;
      bytes[1 + at] = 0;
    }
  }
}
