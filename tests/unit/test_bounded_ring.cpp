// The ring under the call-site index (SiteIndex): it grows by segments (nothing moves) until it
// holds N entries, then overwrites the oldest, and always answers oldest first.
#include <gtest/gtest.h>

#include <deque>

#include "sim/checkers/bounded_ring.h"

using namespace symsim;

TEST(BoundedRing, GrowsThenKeepsTheNewestN) {
  BoundedRing<int, 8> r;
  EXPECT_TRUE(r.empty());
  for (int i = 0; i < 5; ++i) r.push_back(i);
  ASSERT_EQ(r.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(r[i], static_cast<int>(i));
  EXPECT_EQ(r.back(), 4);
  for (int i = 5; i < 21; ++i) r.push_back(i);
  ASSERT_EQ(r.size(), 8u);  // never more than N
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(r[i], 13 + static_cast<int>(i));  // oldest first
  EXPECT_EQ(r.back(), 20);
  r[0] = 100;  // entries stay writable in place
  EXPECT_EQ(r[0], 100);
}

// Segments of 4, 4, 8, ... 2048: entries across every segment boundary and after many wraps.
TEST(BoundedRing, AgreesWithADequeAcrossSegmentsAndWraps) {
  BoundedRing<uint64_t, 4096> r;
  std::deque<uint64_t> model;
  for (uint64_t i = 0; i < 3 * 4096 + 123; ++i) {
    r.push_back(i * 7);
    model.push_back(i * 7);
    if (model.size() > 4096) model.pop_front();
    if ((i & (i + 1)) == 0 || i % 1021 == 0) {  // at powers of two (segment ends) and now and then
      ASSERT_EQ(r.size(), model.size());
      for (size_t k = 0; k < model.size(); ++k) ASSERT_EQ(r[k], model[k]);
      EXPECT_EQ(r.back(), model.back());
    }
  }
}
