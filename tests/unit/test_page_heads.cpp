// The page table under src_reuse_before_completion's record of core writes: each page answers
// its newest entry, and pages whose entries have all left the FIFO are dropped when the table
// would grow (stale pages are not kept for the whole run).
#include <gtest/gtest.h>

#include "sim/checkers/page_heads.h"

using namespace symsim;

TEST(PageHeads, AnswersEachPagesNewestEntry) {
  PageHeads h;
  EXPECT_EQ(h.get(7), PageHeads::kNone);
  EXPECT_EQ(h.set(7, 0, 0), PageHeads::kNone);
  EXPECT_EQ(h.set(9, 1, 0), PageHeads::kNone);
  EXPECT_EQ(h.set(7, 2, 0), 0u);  // the entry it replaces: the page's chain goes on from there
  EXPECT_EQ(h.get(7), 2u);
  EXPECT_EQ(h.get(9), 1u);
  EXPECT_EQ(h.get(8), PageHeads::kNone);
}

TEST(PageHeads, DropsStalePagesWhenItWouldGrow) {
  PageHeads h;
  // 10,000 pages, one entry each, with only the last 10 entries still live: the table is
  // rebuilt many times and keeps the live pages only.
  for (uint64_t n = 0; n < 10000; ++n) h.set(1000 + n, n, n >= 10 ? n - 10 : 0);
  for (uint64_t n = 9990; n < 10000; ++n) EXPECT_EQ(h.get(1000 + n), n);
  int kept = 0;
  for (uint64_t n = 0; n < 9990; ++n) kept += h.get(1000 + n) != PageHeads::kNone;
  EXPECT_LT(kept, 200);  // a stale page may linger until the next rebuild, not for the run
}
