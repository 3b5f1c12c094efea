// The landing index of flag_before_data (IntervalList, filed by page) and the ring FIFO under
// its per-QP queues: overlaps come back by begin then oldest first, once each however many
// pages a range covers, and evicted ranges are gone from every page they covered.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/checkers/interval_list.h"
#include "sim/checkers/ring_fifo.h"

using namespace symsim;

namespace {

std::vector<int> hits(const IntervalList<int>& l, uint64_t begin, uint64_t end) {
  std::vector<int> out;
  l.overlapping(begin, end, [&](size_t, int v) { out.push_back(v); });
  return out;
}

}  // namespace

TEST(IntervalList, ARangeOverManyPagesIsFoundOnceByBeginThenAge) {
  IntervalList<int> l(8);
  l.add(3 * 4096 + 100, 9 * 4096, 1);  // six pages
  l.add(5 * 4096, 5 * 4096 + 8, 2);
  l.add(3 * 4096 + 100, 4 * 4096, 3);   // same begin as 1, added later
  EXPECT_EQ(hits(l, 0, 20 * 4096), (std::vector<int>{1, 3, 2}));
  EXPECT_EQ(hits(l, 5 * 4096 + 4, 5 * 4096 + 5), (std::vector<int>{1, 2}));
  EXPECT_EQ(hits(l, 8 * 4096 + 4095, 8 * 4096 + 4096), (std::vector<int>{1}));
  EXPECT_EQ(hits(l, 9 * 4096, 10 * 4096), (std::vector<int>{}));  // end is exclusive
}

TEST(IntervalList, AnEmptyRangeOverlapsOnlyAQueryAroundIt) {
  IntervalList<int> l(4);
  l.add(4096 + 10, 4096 + 10, 1);
  EXPECT_EQ(hits(l, 4096, 4096 + 20), (std::vector<int>{1}));
  EXPECT_EQ(hits(l, 4096 + 10, 4096 + 20), (std::vector<int>{}));
  EXPECT_EQ(hits(l, 4096, 4096 + 10), (std::vector<int>{}));
}

TEST(IntervalList, EvictionClearsEveryPageOfTheOldest) {
  IntervalList<int> l(2);
  const size_t a = l.add(0, 3 * 4096, 1);
  l.add(4096, 4096 + 1, 2);
  l.add(2 * 4096, 2 * 4096 + 1, 3);  // evicts 1
  EXPECT_EQ(l.get(a), nullptr);
  EXPECT_EQ(hits(l, 0, 3 * 4096), (std::vector<int>{2, 3}));
  for (int i = 4; i < 1000; ++i) l.add(4096, 4096 + 1, i);  // reuse: nothing left behind
  EXPECT_EQ(hits(l, 0, 3 * 4096), (std::vector<int>{998, 999}));
}

TEST(IntervalList, ManyRangesOnOnePageOutliveEvictionsAndTableRebuilds) {
  IntervalList<int> l(64);
  // 10,000 ranges over 500 pages, 20 on each: each page's chain reaches back through evicted
  // filings, and the page table is rebuilt as pages go stale.
  for (int i = 0; i < 10000; ++i) l.add(uint64_t(i % 500) * 4096 + uint64_t(i / 500), uint64_t(i % 500) * 4096 + 100, i);
  for (int page = 0; page < 500; ++page) {
    const std::vector<int> want = page >= 436 ? std::vector<int>{9500 + page} : std::vector<int>{};
    EXPECT_EQ(hits(l, uint64_t(page) * 4096, uint64_t(page) * 4096 + 4096), want) << page;
  }
}

// Ranges are filed when a query comes (interval_list.h): queries between adds leave some
// ranges filed and some not when the oldest are evicted; every query answers as a plain list
// of the newest `capacity` ranges would.
TEST(IntervalList, QueriesBetweenAddsAnswerAsAPlainListOfTheNewest) {
  constexpr size_t kCapacity = 16;
  IntervalList<int> l(kCapacity);
  struct Kept {
    uint64_t b, e;
    int v;
  };
  std::vector<Kept> plain;  // the newest kCapacity, oldest first
  uint64_t x = 12345;
  const auto next = [&x](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % n;
  };
  for (int i = 0; i < 3000; ++i) {
    const uint64_t b = next(40) * 1024 + next(1024);
    const uint64_t e = b + next(3 * 4096);  // up to four pages, some of no bytes
    l.add(b, e, i);
    plain.push_back({b, e, i});
    if (plain.size() > kCapacity) plain.erase(plain.begin());
    if (next(7) != 0) continue;  // queries after one add in seven, on average
    const uint64_t qb = next(40) * 1024, qe = qb + 1 + next(2 * 4096);
    std::vector<std::pair<uint64_t, int>> want;
    for (const Kept& k : plain)
      if (k.b < qe && k.e > qb) want.emplace_back(k.b, k.v);  // as overlapping() tests it
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
    std::vector<int> want_v;
    for (const auto& w : want) want_v.push_back(w.second);
    EXPECT_EQ(hits(l, qb, qe), want_v) << "after add " << i;
  }
}

TEST(RingFifo, KeepsOrderAcrossGrowthAndWrap) {
  RingFifo<int> f;
  int next_out = 0;
  for (int i = 0; i < 100; ++i) {
    f.emplace_back(i);
    if (i % 3 == 0) {
      EXPECT_EQ(f.front(), next_out++);
      f.pop_front();
    }
  }
  ASSERT_EQ(f.size(), static_cast<size_t>(100 - next_out));
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], next_out + static_cast<int>(i));
  EXPECT_EQ(f.back(), 99);
}

namespace {

// A payload that carries its own range (flag_before_data's landing): kept without a copy of it.
struct Ranged {
  static constexpr bool kKeepsRange = true;
  uint64_t at = 0;
  uint32_t bytes = 0;
  int tag = 0;
  uint64_t begin() const { return at; }
  uint64_t end() const { return at + bytes; }
};

}  // namespace

TEST(IntervalList, APayloadWithItsOwnRangeIsFoundAndEvictedAlike) {
  IntervalList<Ranged> l(2);
  const size_t a = l.add(4096 - 8, 4096 + 8, Ranged{4096 - 8, 16, 1});  // two pages
  const size_t b = l.add(4096, 4096 + 4, Ranged{4096, 4, 2});
  EXPECT_LT(a, b);  // a later add has a larger id
  std::vector<int> tags;
  l.overlapping(4096, 4097, [&](size_t, const Ranged& r) { tags.push_back(r.tag); });
  EXPECT_EQ(tags, (std::vector<int>{1, 2}));
  l.add(0, 8, Ranged{0, 8, 3});  // evicts the first from both its pages
  EXPECT_EQ(l.get(a), nullptr);
  tags.clear();
  l.overlapping(0, 8192, [&](size_t, const Ranged& r) { tags.push_back(r.tag); });
  EXPECT_EQ(tags, (std::vector<int>{3, 2}));
}
