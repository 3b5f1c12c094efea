// SparseRegion::is_zero: a page-at-a-time comparison with zeros (session 29) finds a single
// non-zero byte wherever it lies: first, last, either side of a page boundary, in a short tail.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
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

// SparseRegion::reads_zero gives is_zero's answer for every range of a region whose pages are in
// each state a page can be in (never touched, written, written and handed back, read only, with
// a non-zero byte first, last or alone), and reads no page that was never mapped.
TEST(SparseZero, ReadsZeroAgreesWithIsZeroWithoutMappingUntouchedPages) {
  constexpr uint64_t kPage = SparseRegion::kHostPageBytes;
  constexpr uint64_t kPages = 24;
  SparseRegion region(kPages * kPage, true, "test.reads_zero");
  uint8_t* b = region.base();
  // Pages 0-3 untouched; 4-5 written with zeros; 6 read only (the zero page); 7 a byte at its
  // start; 8 a byte at its end; 9-11 written then handed back; 12 a byte in its middle, then the
  // page handed back but for one byte; 13-23 untouched but 17 (a byte at its end).
  std::memset(b + 4 * kPage, 0, 2 * kPage);
  EXPECT_EQ(static_cast<const volatile uint8_t*>(b)[6 * kPage + 100], 0);
  b[7 * kPage] = 1;
  b[9 * kPage - 1] = 2;
  std::memset(b + 9 * kPage, 0x5a, 3 * kPage);
  SparseRegion::store_zeros(b + 9 * kPage, 3 * kPage);
  std::memset(b + 12 * kPage, 0x33, kPage);
  SparseRegion::store_zeros(b + 12 * kPage, kPage - 1);
  b[18 * kPage - 1] = 3;
  for (uint64_t from = 0; from < kPages * kPage; from += kPage / 2 - 3)
    for (const uint64_t len : {uint64_t{1}, kPage - 1, kPage, kPage + 5, 3 * kPage, 7 * kPage + 11, 24 * kPage}) {
      if (from + len > kPages * kPage) continue;
      EXPECT_EQ(SparseRegion::reads_zero(b + from, len), SparseRegion::is_zero(b + from, len)) << from << " " << len;
    }
  // Outside a sparse region it is is_zero too.
  std::vector<uint8_t> heap(3 * kPage, 0);
  EXPECT_TRUE(SparseRegion::reads_zero(heap.data() + 1, 2 * kPage));
  heap[2 * kPage] = 9;
  EXPECT_FALSE(SparseRegion::reads_zero(heap.data() + 1, 2 * kPage));
  // A region never touched: reads_zero maps none of its pages (is_zero would map every one).
  SparseRegion fresh(8 * kPage, true, "test.reads_zero.fresh");
  EXPECT_TRUE(SparseRegion::reads_zero(fresh.base(), 8 * kPage));
  unsigned char resident[8] = {};
  ASSERT_EQ(mincore(fresh.base(), 8 * kPage, resident), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(resident[i] & 1, 0) << "page " << i << " was mapped";
  EXPECT_TRUE(SparseRegion::is_zero(fresh.base(), 8 * kPage));
  fresh.base()[5 * kPage + 7] = 1;
  EXPECT_FALSE(SparseRegion::reads_zero(fresh.base(), 8 * kPage));
}

// /proc/self/pagemap names the process that opened it: a child forked after the parent's first
// reads_zero must see its own pages, not the parent's (there, the page written in the child is
// still untouched and would be taken as zero).
TEST(SparseZero, ReadsZeroInAForkedChildSeesTheChildsPages) {
  constexpr uint64_t kPage = SparseRegion::kHostPageBytes;
  SparseRegion region(4 * kPage, true, "test.reads_zero.fork");
  ASSERT_TRUE(SparseRegion::reads_zero(region.base(), 4 * kPage));  // the parent's pagemap is open now
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    region.base()[2 * kPage + 9] = 1;
    _exit(SparseRegion::reads_zero(region.base(), 4 * kPage) ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's written page was taken as zero";
  EXPECT_TRUE(SparseRegion::reads_zero(region.base(), 4 * kPage));
}
