// cold_pages: evicted pages read back byte for byte, cleared ones as zero.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/memory/cold_pages.h"
#include "models/memory/sparse_region.h"

using symsim::SparseRegion;
namespace cold_pages = symsim::cold_pages;

namespace {

constexpr uint64_t kPage = SparseRegion::kHostPageBytes;

// A page's expected bytes: a few "WQEs" at its start, a byte at its end, or 3 KiB of data.
std::vector<uint8_t> pattern(int i) {
  std::vector<uint8_t> v(kPage, 0);
  const int kind = i % 3;
  if (kind == 0) for (int b = 0; b < 64 * (1 + i % 5); ++b) v[b] = static_cast<uint8_t>(i * 7 + b + 1);
  if (kind == 1) v[kPage - 1] = static_cast<uint8_t>(i + 1);
  if (kind == 2) for (uint64_t b = 512; b < 3584; ++b) v[b] = static_cast<uint8_t>(b ^ i) | 1;
  return v;
}

}  // namespace

TEST(ColdPages, EvictedPagesReadBackTheirBytes) {
  constexpr int kPages = 48;
  SparseRegion region(kPages * kPage, true, "test.cold");
  region.watch_cold_pages();
  const uint64_t budget = cold_pages::set_budget_pages(4);
  const cold_pages::Stats before = cold_pages::stats();
  // Every page written through a plain pointer; then read, written and cleared in rounds, with
  // most pages evicted in between.
  for (int i = 0; i < kPages; ++i) std::memcpy(region.base() + i * kPage, pattern(i).data(), kPage);
  for (int round = 0; round < 3; ++round) {
    for (int i = kPages - 1; i >= 0; --i) {
      const std::vector<uint8_t> want = pattern(i);
      ASSERT_EQ(std::memcmp(region.base() + i * kPage, want.data(), kPage), 0) << "page " << i << " round " << round;
    }
  }
  // A whole evicted page cleared by store_zeros reads as zero, not as its saved bytes.
  for (int i = kPages - 8; i < kPages; ++i) {  // maps other pages: evicts pages 0 and 1
    const volatile uint8_t* p = region.base() + i * kPage;
    ASSERT_EQ(p[kPage - 1], pattern(i)[kPage - 1]);
  }
  SparseRegion::store_zeros(region.base(), 2 * kPage);
  for (uint64_t b = 0; b < 2 * kPage; ++b) ASSERT_EQ(region.base()[b], 0) << b;
  for (int i = 2; i < kPages; ++i) ASSERT_EQ(std::memcmp(region.base() + i * kPage, pattern(i).data(), kPage), 0) << i;
  const cold_pages::Stats after = cold_pages::stats();
  cold_pages::set_budget_pages(budget);
  if (after.faults == before.faults) GTEST_SKIP() << "userfaultfd is not available here: nothing was watched";
  EXPECT_GT(after.evicted - before.evicted, uint64_t{kPages});
  EXPECT_GT(after.restored - before.restored, uint64_t{kPages});
}

// The default budget grows past its floor (16,384 pages) while the process is small: touching
// 20,000 pages evicts none; fixed at the floor, the same pages are evicted.
TEST(ColdPages, DefaultBudgetFollowsTheResidentSet) {
  constexpr uint64_t kPages = 20000;
  const uint64_t budget = cold_pages::set_budget_pages(0);
  uint64_t evicted[2] = {};
  for (int fixed = 0; fixed < 2; ++fixed) {
    if (fixed) cold_pages::set_budget_pages(16384);
    SparseRegion region(kPages * kPage, true, "test.cold.budget");
    region.watch_cold_pages();
    const cold_pages::Stats before = cold_pages::stats();
    for (uint64_t i = 0; i < kPages; ++i) region.base()[i * kPage] = 1;
    const cold_pages::Stats after = cold_pages::stats();
    if (after.faults == before.faults) {
      cold_pages::set_budget_pages(budget);
      GTEST_SKIP() << "userfaultfd is not available here: nothing was watched";
    }
    evicted[fixed] = after.evicted - before.evicted;
  }
  cold_pages::set_budget_pages(budget);
  EXPECT_EQ(evicted[0], 0u);
  EXPECT_GT(evicted[1], 0u);
}

// A region unmapped with pages still mapped leaves the budget to the next one (its pages are
// dropped from the eviction order lazily), and the next region's pages, perhaps at the same
// addresses, read back their own bytes.
TEST(ColdPages, UnwatchedRegionLeavesItsBudget) {
  constexpr int kPages = 8;
  const uint64_t budget = cold_pages::set_budget_pages(4);
  const cold_pages::Stats first = cold_pages::stats();
  {
    SparseRegion gone(kPages * kPage, true, "test.cold.gone");
    gone.watch_cold_pages();
    for (int i = 0; i < kPages; ++i) gone.base()[i * kPage] = 1;  // 4 stay mapped
  }
  SparseRegion region(kPages * kPage, true, "test.cold.next");
  region.watch_cold_pages();
  const cold_pages::Stats before = cold_pages::stats();
  for (int i = 0; i < 4; ++i) std::memcpy(region.base() + i * kPage, pattern(i).data(), kPage);
  const cold_pages::Stats filled = cold_pages::stats();
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < kPages; ++i) {
      if (i >= 4 && round == 0) std::memcpy(region.base() + i * kPage, pattern(i).data(), kPage);
      ASSERT_EQ(std::memcmp(region.base() + i * kPage, pattern(i).data(), kPage), 0) << "page " << i;
    }
  cold_pages::set_budget_pages(budget);
  if (before.faults == first.faults) GTEST_SKIP() << "userfaultfd is not available here: nothing was watched";
  EXPECT_EQ(filled.evicted, before.evicted);  // 4 pages under a budget of 4: nothing of the first region counts
  EXPECT_GT(cold_pages::stats().evicted, filled.evicted);
}

// Listed pages handed back as zero (store_zeros), one of them mapped again (listed twice), are
// passed over or evicted without being read while unmapped (the handler would die on its own
// SIGBUS), and every page reads back its bytes.
TEST(ColdPages, ClearedListedPagesAreEvictedSafely) {
  constexpr int kPages = 8;
  const uint64_t budget = cold_pages::set_budget_pages(4);
  SparseRegion region(kPages * kPage, true, "test.cold.cleared");
  region.watch_cold_pages();
  const cold_pages::Stats before = cold_pages::stats();
  for (int i = 0; i < 4; ++i) std::memcpy(region.base() + i * kPage, pattern(i).data(), kPage);
  SparseRegion::store_zeros(region.base() + kPage, 2 * kPage);  // pages 1 and 2 go, still listed
  region.base()[kPage] = 0;  // page 1 mapped again: listed twice
  for (int i = 4; i < kPages; ++i) std::memcpy(region.base() + i * kPage, pattern(i).data(), kPage);
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < kPages; ++i) {
      const std::vector<uint8_t> want = i == 1 || i == 2 ? std::vector<uint8_t>(kPage, 0) : pattern(i);
      ASSERT_EQ(std::memcmp(region.base() + i * kPage, want.data(), kPage), 0) << "page " << i << " round " << round;
    }
  const cold_pages::Stats after = cold_pages::stats();
  cold_pages::set_budget_pages(budget);
  if (after.faults == before.faults) GTEST_SKIP() << "userfaultfd is not available here: nothing was watched";
  EXPECT_GT(after.evicted - before.evicted, uint64_t{kPages});
}
