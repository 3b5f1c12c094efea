// page_table_warmer: the page tables of a watched region are made on the helper thread, with no
// page mapped and nothing the cold-page store sees; the pages then read and write as before.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "models/memory/cold_pages.h"
#include "models/memory/page_table_warmer.h"
#include "models/memory/sparse_region.h"

using symsim::SparseRegion;
namespace cold_pages = symsim::cold_pages;
namespace warmer = symsim::page_table_warmer;

namespace {

constexpr uint64_t kSpan = uint64_t{2} << 20;

// The process's page tables, kB (/proc/self/status), or -1.
long vm_pte_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmPTE:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

}  // namespace

TEST(PageTableWarmer, MakesTablesWithoutMappingPages) {
  if (!warmer::enabled()) GTEST_SKIP() << "SYMSIM_PT_WARM=0";
  constexpr int kSpans = 256;
  // One span more, so that kSpans whole spans lie inside whatever the base's alignment.
  SparseRegion region((kSpans + 1) * kSpan, true, "test.rings");
  region.watch_cold_pages();
  if (!region.cold()) GTEST_SKIP() << "userfaultfd is not available here: nothing is watched";
  const auto first = (reinterpret_cast<uintptr_t>(region.base()) + kSpan - 1) & ~(kSpan - 1);
  const cold_pages::Stats cold_before = cold_pages::stats();
  const warmer::Stats before = warmer::stats();
  const long pte_before = vm_pte_kb();
  for (int i = 0; i < kSpans; ++i) {
    warmer::warm(reinterpret_cast<uint8_t*>(first + i * kSpan));
    warmer::warm(reinterpret_cast<uint8_t*>(first + i * kSpan + 4096));  // same span: asked once
  }
  warmer::wait_idle();
  const warmer::Stats after = warmer::stats();
  EXPECT_EQ(after.asked - before.asked, uint64_t{kSpans});
  EXPECT_EQ(after.made - before.made, uint64_t{kSpans});
  EXPECT_EQ(after.found_mapped, before.found_mapped);
  if (pte_before >= 0) {
    EXPECT_GE(vm_pte_kb() - pte_before, long{kSpans} * 4 * 9 / 10);  // a 4 KiB table a span
  }
  // Nothing mapped, nothing the store handled.
  for (int i = 0; i < kSpans; ++i) {
    unsigned char present = 1;
    ASSERT_EQ(mincore(reinterpret_cast<void*>(first + i * kSpan), 4096, &present), 0);
    EXPECT_EQ(present & 1, 0) << "span " << i;
  }
  EXPECT_EQ(cold_pages::stats().faults, cold_before.faults);
  // The pages read zero and keep what is written, through the store as before.
  for (int i = 0; i < kSpans; ++i) {
    volatile uint8_t* p = reinterpret_cast<uint8_t*>(first + i * kSpan);
    ASSERT_EQ(p[17], 0);
    p[17] = static_cast<uint8_t>(i + 1);
  }
  for (int i = 0; i < kSpans; ++i) ASSERT_EQ(reinterpret_cast<uint8_t*>(first + i * kSpan)[17], static_cast<uint8_t>(i + 1));
  EXPECT_EQ(cold_pages::stats().faults - cold_before.faults, uint64_t{kSpans});
}

TEST(PageTableWarmer, DropsWhatIsQueuedWhenAWatchedRegionGoes) {
  if (!warmer::enabled()) GTEST_SKIP() << "SYMSIM_PT_WARM=0";
  const warmer::Stats before = warmer::stats();
  {
    SparseRegion region(64 * kSpan, true, "test.rings");
    region.watch_cold_pages();
    if (!region.cold()) GTEST_SKIP() << "userfaultfd is not available here: nothing is watched";
    for (int i = 0; i < 64; ++i) warmer::warm(region.base() + i * kSpan);
  }  // unmapped: what was still queued is dropped
  warmer::wait_idle();
  const warmer::Stats after = warmer::stats();
  EXPECT_EQ(after.asked - before.asked, uint64_t{64});
  EXPECT_EQ((after.made - before.made) + (after.found_mapped - before.found_mapped) + (after.dropped - before.dropped) <=
                uint64_t{64},
            true);
}
