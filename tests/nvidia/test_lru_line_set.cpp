// The L2's line set keeps exact least-recently-used order in flat arrays: checked against a
// list and a map over a long seeded sequence that fills it, evicts, and re-touches lines whose
// index entries were moved by deletions.
#include <gtest/gtest.h>

#include <list>
#include <random>
#include <unordered_map>

#include "models/nvidia/lru_line_set.h"

namespace {

// The reference: a list in recency order (most recent first) and a map into it.
struct ListLru {
  explicit ListLru(uint64_t capacity_lines) : capacity(capacity_lines) {}
  uint64_t capacity;
  std::list<uint64_t> order;
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where;
  // Whether `line` was held; it is the most recent afterwards.
  bool touch(uint64_t line) {
    const auto it = where.find(line);
    const bool held = it != where.end();
    if (held) {
      order.erase(it->second);
    } else if (order.size() == capacity) {
      where.erase(order.back());
      order.pop_back();
    }
    order.push_front(line);
    where[line] = order.begin();
    return held;
  }
};

TEST(LruLineSet, EvictsTheLeastRecentlyUsedLine) {
  symsim::nv::LruLineSet s(3);
  EXPECT_FALSE(s.touch(10));
  EXPECT_FALSE(s.touch(20));
  EXPECT_FALSE(s.touch(30));
  EXPECT_TRUE(s.touch(10));   // 10 is now the newest; 20 the oldest
  EXPECT_FALSE(s.touch(40));  // 20 leaves
  EXPECT_FALSE(s.holds(20));
  EXPECT_TRUE(s.holds(10));
  EXPECT_TRUE(s.holds(30));
  EXPECT_TRUE(s.holds(40));
  EXPECT_EQ(s.size(), 3u);
}

TEST(LruLineSet, DropsItsOldestLinesAndKeepsTheOrderOfTheRest) {
  symsim::nv::LruLineSet s(4);
  for (uint64_t line : {1, 2, 3, 4}) s.touch(line);
  s.touch(1);        // order, oldest first: 2 3 4 1
  s.drop_oldest(2);  // 2 and 3 leave
  EXPECT_EQ(s.size(), 2u);
  EXPECT_FALSE(s.holds(2));
  EXPECT_FALSE(s.holds(3));
  EXPECT_TRUE(s.holds(4));
  EXPECT_TRUE(s.holds(1));
  s.touch(5);
  s.touch(6);
  EXPECT_FALSE(s.touch(7));  // full again: 4, the oldest survivor, goes first
  EXPECT_FALSE(s.holds(4));
  EXPECT_TRUE(s.holds(1));
  s.drop_oldest(10);  // more than held: nothing stays
  EXPECT_EQ(s.size(), 0u);
  EXPECT_FALSE(s.touch(1));
}

// A written line is dirty until it leaves; a dirty line leaving (pushed out, or dropped by a
// memset's displacement) is counted, a clean one is not (l2.dirty_victim_gbytes_per_s).
TEST(LruLineSet, CountsTheDirtyLinesThatLeave) {
  symsim::nv::LruLineSet s(3);
  s.touch(1, /*write=*/true);
  s.touch(2);
  s.touch(3);
  s.touch(2, /*write=*/true);  // a hit that writes makes the line dirty
  EXPECT_EQ(s.dirty_evictions(), 0u);
  s.touch(4);  // 1 (dirty) leaves
  EXPECT_EQ(s.dirty_evictions(), 1u);
  s.touch(5);  // 3 (clean) leaves
  EXPECT_EQ(s.dirty_evictions(), 1u);
  s.touch(6, /*write=*/true);  // 2 (dirty) leaves; 6's node is dirty, not 2's state carried over
  EXPECT_EQ(s.dirty_evictions(), 2u);
  s.drop_oldest(1);  // 4 (clean)
  EXPECT_EQ(s.dirty_evictions(), 2u);
  s.touch(7);
  s.touch(8);        // 5 (clean) leaves; order, oldest first: 6 7 8
  EXPECT_EQ(s.dirty_evictions(), 2u);
  s.drop_oldest(1);  // 6 (dirty): its state survived the rebuild above
  EXPECT_EQ(s.dirty_evictions(), 3u);
  s.touch(9);
  s.touch(10);  // 7 (clean, read in) leaves
  EXPECT_EQ(s.dirty_evictions(), 3u);
}

TEST(LruLineSet, ZeroCapacityHoldsNothing) {
  symsim::nv::LruLineSet s(0);
  EXPECT_FALSE(s.touch(1));
  EXPECT_FALSE(s.touch(1));
  EXPECT_EQ(s.size(), 0u);
}

TEST(LruLineSet, AgreesWithAListOverAMillionTouches) {
  constexpr uint64_t kCapacity = 5000;
  symsim::nv::LruLineSet s(kCapacity);
  ListLru ref(kCapacity);
  std::mt19937_64 rng(7);
  uint64_t hits = 0;
  for (int i = 0; i < 1000000; ++i) {
    // Lines clustered like a kernel's buffers (runs of neighbours) plus scattered ones that
    // collide in the index (multiples of a large power of two).
    const uint64_t r = rng() % 4;
    const uint64_t line = r == 0 ? (rng() % 64) << 20 : r == 1 ? rng() % 12000 : 1000 + rng() % 6000;
    const bool want = ref.touch(line);
    ASSERT_EQ(s.touch(line), want) << "touch " << i << " of line " << line;
    hits += want;
  }
  EXPECT_EQ(s.size(), kCapacity);
  for (const uint64_t line : ref.order) EXPECT_TRUE(s.holds(line));
  EXPECT_GT(hits, 100000u);  // the sequence exercised hits and evictions alike
  EXPECT_LT(hits, 900000u);
}

TEST(LruLineSet, AgreesWithAListOverRunsOfConsecutiveLines) {
  // As L2 accesses touch them: runs of up to 64 neighbouring lines, which share index lines.
  constexpr uint64_t kCapacity = 3000;
  symsim::nv::LruLineSet s(kCapacity);
  ListLru ref(kCapacity);
  std::mt19937_64 rng(11);
  uint64_t hits = 0, touches = 0;
  for (int run = 0; run < 20000; ++run) {
    const uint64_t first = (rng() % 4 == 0 ? (rng() % 8) << 24 : 0) + rng() % 20000;
    const uint64_t n = 1 + rng() % 64;
    for (uint64_t line = first; line < first + n; ++line, ++touches) {
      const bool want = ref.touch(line);
      ASSERT_EQ(s.touch(line), want) << "run " << run << " line " << line;
      hits += want;
    }
  }
  for (const uint64_t line : ref.order) EXPECT_TRUE(s.holds(line));
  EXPECT_GT(hits, touches / 20);  // hits and evictions alike
  EXPECT_LT(hits, touches - touches / 20);
}

}  // namespace
