// The ring under the call-site index (SiteIndex): it grows like a vector until it holds N
// entries, then overwrites the oldest, and always answers oldest first.
#include <gtest/gtest.h>

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
