// The node pool under src_reuse_before_completion's source maps: a map's erased nodes are reused
// by its next inserts, the map behaves as a plain std::map, and other sizes pass through.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "sim/checkers/node_pool.h"

using namespace symsim;

namespace {
using Map = std::map<uint64_t, uint64_t, std::less<uint64_t>, PoolAllocator<std::pair<const uint64_t, uint64_t>>>;
}

TEST(NodePool, ErasedNodesServeTheNextInserts) {
  NodePool pool;
  Map m{PoolAllocator<std::pair<const uint64_t, uint64_t>>(&pool)};
  m.try_emplace(1u << 20, 0);  // stays: with no node left the pool gives its slabs back
  std::set<const void*> first;
  for (uint64_t k = 0; k < 1000; ++k) first.insert(&*m.try_emplace(k, k).first);
  m.erase(m.begin(), m.find(1u << 20));
  for (uint64_t k = 5000; k < 6000; ++k) {
    const auto it = m.try_emplace(k, 2 * k).first;
    EXPECT_EQ(first.count(&*it), 1u) << "a fresh node for key " << k;
  }
  ASSERT_EQ(m.size(), 1001u);
  m.erase(1u << 20);
  uint64_t expect = 5000;
  for (const auto& [k, v] : m) {  // ordered and intact, as a std::map
    EXPECT_EQ(k, expect);
    EXPECT_EQ(v, 2 * expect);
    ++expect;
  }
}

TEST(NodePool, MapsSharingAPoolStayApart) {
  NodePool pool;
  const PoolAllocator<std::pair<const uint64_t, uint64_t>> alloc(&pool);
  std::vector<Map> maps(4, Map(alloc));
  for (int round = 0; round < 3; ++round) {
    for (uint64_t k = 0; k < 300; ++k) maps[k % 4].try_emplace(k, k + round);
    for (size_t i = 0; i < maps.size(); ++i) {
      EXPECT_EQ(maps[i].size(), 75u);
      for (const auto& [k, v] : maps[i]) {
        EXPECT_EQ(k % 4, i);
        EXPECT_EQ(v, k + round);
      }
    }
    for (Map& m : maps) m.clear();
  }
}

TEST(NodePool, OtherSizesPassThrough) {
  NodePool pool;
  void* a = pool.take(48);  // the pooled size from here on
  void* kept = pool.take(48);
  void* b = pool.take(16);
  void* c = pool.take(4000);
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  pool.give(b, 16);
  pool.give(c, 4000);
  pool.give(a, 48);
  EXPECT_EQ(pool.take(48), a);  // the last node given back is the next one taken
  pool.give(a, 48);
  pool.give(kept, 48);  // the last one: the slab goes back to malloc
  void* again = pool.take(48);  // from a fresh slab, still usable
  EXPECT_NE(again, nullptr);
  pool.give(again, 48);
}

// A pool given a hot offset cuts nodes so that the offset starts a 64-byte line.
TEST(NodePool, HotOffsetStartsALine) {
  NodePool pool(56);
  std::vector<void*> nodes;
  for (int i = 0; i < 200; ++i) {  // more than one slab
    nodes.push_back(pool.take(168));
    EXPECT_EQ((reinterpret_cast<uintptr_t>(nodes.back()) + 56) % 64, 0u);
  }
  for (void* p : nodes) pool.give(p, 168);
}
