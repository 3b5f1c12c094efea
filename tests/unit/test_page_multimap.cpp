// PageMultimap: entries filed under pages survive growth and deletions in any order.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "models/core/page_multimap.h"

using symsim::PageMultimap;

TEST(PageMultimap, MatchesAReferenceUnderRandomInsertsAndErases) {
  PageMultimap<uint32_t> m;
  std::map<uint64_t, std::multiset<uint32_t>> ref;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t page = rng() % 300;  // collide often, wrap the table often
    const uint32_t v = static_cast<uint32_t>(rng() % 5);
    if (rng() % 3 == 0) {
      m.erase(page, v);
      auto it = ref.find(page);
      if (it != ref.end() && it->second.count(v)) it->second.erase(it->second.find(v));
    } else {
      m.insert(page, v);
      ref[page].insert(v);
    }
  }
  bool empty = true;
  for (uint64_t page = 0; page < 300; ++page) {
    std::multiset<uint32_t> got;
    m.for_each(page, [&](uint32_t v) { got.insert(v); });
    EXPECT_EQ(got, ref[page]) << page;
    empty = empty && got.empty();
  }
  EXPECT_EQ(m.empty(), empty);
}
