// page_populator: destination pages faulted in ahead of their writes read zero until the writes
// land, and every byte reads as it does without the helper; regions the cold-page store watches are
// left alone.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "models/memory/cold_pages.h"
#include "models/memory/page_populator.h"
#include "models/memory/sparse_region.h"
#include "models/memory/visibility_queue.h"

using namespace symsim;

namespace {

constexpr uint64_t kPage = SparseRegion::kHostPageBytes;

size_t resident_pages(const uint8_t* p, uint64_t bytes) {
  std::vector<unsigned char> v(bytes / kPage);
  EXPECT_EQ(mincore(const_cast<uint8_t*>(p), bytes, v.data()), 0);
  size_t n = 0;
  for (unsigned char c : v) n += c & 1u;
  return n;
}

}  // namespace

TEST(PagePopulator, PagesPopulatedAheadReadZeroUntilTheirWritesLand) {
  constexpr uint64_t kPages = 64;
  constexpr int kWrites = 16;
  constexpr uint64_t kLen = 3 * kPage + 2048;  // 3.5 pages in 512 B units, from 100 B into page 4i
  SparseRegion with(kPages * kPage, true, "test.populate.on");
  SparseRegion without(kPages * kPage, true, "test.populate.off");
  page_populator::begin_run();
  const page_populator::Stats before = page_populator::stats();
  VisibilityQueue on, off;
  on.set_populate(true);
  std::vector<std::vector<uint8_t>> payload(kWrites, std::vector<uint8_t>(kLen));
  for (int i = 0; i < kWrites; ++i) {
    for (uint64_t b = 0; b < kLen; ++b) payload[i][b] = static_cast<uint8_t>((b * 7 + i) | 1);  // no zero byte
    const Ps first = 1000 * (i + 1);
    on.schedule_stream(first, 10, 512, with.base() + 4 * i * kPage + 100, payload[i].data(), kLen);
    off.schedule_stream(first, 10, 512, without.base() + 4 * i * kPage + 100, payload[i].data(), kLen);
  }
  page_populator::wait_idle();
  const page_populator::Stats after = page_populator::stats();
  // Every destination page is mapped now, and reads zero: nothing has landed.
  EXPECT_EQ(after.populated - before.populated, uint64_t{kWrites});
  EXPECT_EQ(resident_pages(with.base(), kPages * kPage), kPages);
  EXPECT_EQ(resident_pages(without.base(), kPages * kPage), 0u);
  for (uint64_t b = 0; b < kPages * kPage; ++b) ASSERT_EQ(with.base()[b], 0) << b;
  // Settled step by step (into the middle of writes too), both regions read the same bytes.
  for (Ps t = 0; t <= 1000 * (kWrites + 1); t += 35) {
    on.settle(t);
    off.settle(t);
    ASSERT_EQ(std::memcmp(with.base(), without.base(), kPages * kPage), 0) << "at " << t << " ps";
  }
  for (int i = 0; i < kWrites; ++i)
    ASSERT_EQ(std::memcmp(with.base() + 4 * i * kPage + 100, payload[i].data(), kLen), 0) << i;
}

TEST(PagePopulator, LeavesRegionsTheColdPageStoreWatches) {
  constexpr uint64_t kPages = 16;
  SparseRegion cold(kPages * kPage, true, "test.populate.cold");
  cold.watch_cold_pages();
  const uint64_t budget = cold_pages::set_budget_pages(1);
  const cold_pages::Stats store_before = cold_pages::stats();
  // Bytes on pages 0 and 1; mapping page 1 evicts page 0 (its bytes saved, the page unmapped).
  cold.base()[kPage - 1] = 0x5a;
  cold.base()[2 * kPage - 1] = 0xa5;
  if (cold_pages::stats().faults == store_before.faults) {
    cold_pages::set_budget_pages(budget);
    GTEST_SKIP() << "userfaultfd is not available here: nothing was watched";
  }
  page_populator::begin_run();
  const page_populator::Stats before = page_populator::stats();
  VisibilityQueue q;
  q.set_populate(true);
  std::vector<uint8_t> payload(2 * kPage, 0x11);
  q.schedule_stream(1000, 10, 512, cold.base() + 4 * kPage, payload.data(), payload.size());  // pages 4-5
  q.schedule_stream(1000, 10, 512, cold.base(), payload.data(), kPage - 1);             // page 0 but its last byte
  page_populator::wait_idle();
  const page_populator::Stats after = page_populator::stats();
  EXPECT_EQ(after.outside - before.outside, 2u);
  EXPECT_EQ(after.populated, before.populated);
  EXPECT_EQ(resident_pages(cold.base() + 2 * kPage, 14 * kPage), 0u);
  q.settle(100000);
  EXPECT_EQ(cold.base()[kPage - 1], 0x5a);  // the saved byte, brought back by the store
  EXPECT_EQ(cold.base()[2 * kPage - 1], 0xa5);
  EXPECT_EQ(std::memcmp(cold.base(), payload.data(), kPage - 1), 0);
  EXPECT_EQ(std::memcmp(cold.base() + 4 * kPage, payload.data(), 2 * kPage), 0);
  cold_pages::set_budget_pages(budget);
}
