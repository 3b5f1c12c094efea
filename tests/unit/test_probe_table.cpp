// The open-addressed table behind QpTable, AddressMap and gm_out_of_bounds: every key set is
// found with its latest value after the table has grown many times, a key never set is not,
// clear() forgets all, and a table moved from is empty and still usable.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "models/core/probe_table.h"

using symsim::ProbeTable;
using Table = ProbeTable<uint64_t, uint64_t, UINT64_MAX>;

namespace {
// Keys a power of two apart collide in the low bits (PEs' memories lie that way).
uint64_t key(uint64_t i) { return i << 30; }
}  // namespace

TEST(ProbeTable, FindsEveryKeyWithItsLatestValueAfterGrowing) {
  Table t(2, 1);
  for (uint64_t i = 0; i < 5000; ++i) t.set(key(i), i);
  for (uint64_t i = 0; i < 5000; i += 2) t.set(key(i), i + 1);  // overwrite: no new slot
  EXPECT_EQ(t.size(), 5000u);
  for (uint64_t i = 0; i < 5000; ++i) {
    const uint64_t* v = t.find(key(i));
    ASSERT_NE(v, nullptr) << i;
    EXPECT_EQ(*v, i % 2 == 0 ? i + 1 : i);
  }
  EXPECT_EQ(t.find(key(5000)), nullptr);
  EXPECT_EQ(t.find(12345), nullptr);
}

TEST(ProbeTable, HomeSlotHoldsAKeyAloneInItsSlot) {
  Table t(8, 2);
  t.set(42, 7);
  EXPECT_EQ(t.home(42).key, 42u);
  EXPECT_EQ(t.home(42).value, 7u);
}

TEST(ProbeTable, ClearForgetsEveryKey) {
  Table t(4, 1);
  for (uint64_t i = 0; i < 100; ++i) t.set(key(i), i);
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(t.find(key(i)), nullptr);
  t.set(key(3), 9);
  ASSERT_NE(t.find(key(3)), nullptr);
  EXPECT_EQ(*t.find(key(3)), 9u);
}

TEST(ProbeTable, MovedFromTableIsEmptyAndUsable) {
  Table a(4, 1);
  for (uint64_t i = 0; i < 100; ++i) a.set(key(i), i);
  Table b = std::move(a);
  EXPECT_EQ(b.size(), 100u);
  ASSERT_NE(b.find(key(99)), nullptr);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): the state a move leaves is the point
  EXPECT_EQ(a.find(key(99)), nullptr);
  for (uint64_t i = 0; i < 50; ++i) a.set(key(i), i);
  ASSERT_NE(a.find(key(49)), nullptr);
  EXPECT_EQ(*a.find(key(49)), 49u);
}
