// The address map answers the same region for an address however many chunks were met before
// (its table of chunks grows and never evicts), a range running past its region's end is not
// inside it, and a region added after lookups is found.
#include <gtest/gtest.h>

#include <vector>

#include "models/memory/address_map.h"

using namespace symsim;

namespace {
constexpr uintptr_t kBase = uintptr_t{1} << 40;
constexpr uintptr_t kStride = uintptr_t{1} << 30;  // 1 GiB apart, like the PEs' memories
constexpr uintptr_t kBytes = uintptr_t{4} << 20;
}  // namespace

TEST(AddressMap, FindsEachRegionAcrossManyChunks) {
  AddressMap m;
  for (int pe = 0; pe < 64; ++pe)
    m.add({kBase + pe * kStride, kBase + pe * kStride + kBytes, pe, -1, RegionKind::kHbm, nullptr, "hbm"});
  for (int round = 0; round < 3; ++round)  // the second and third rounds answer from the table
    for (int pe = 0; pe < 64; ++pe)
      for (uintptr_t off = 0; off < kBytes; off += 0x10000 + 8) {
        const Region* r = m.find(reinterpret_cast<const void*>(kBase + pe * kStride + off), 8);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->pe, pe);
      }
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 3 * kStride + kBytes)), nullptr);  // one past the end
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 3 * kStride + kBytes - 4), 8), nullptr);  // runs past it
  EXPECT_NE(m.find(reinterpret_cast<const void*>(kBase + 3 * kStride + kBytes - 8), 8), nullptr);
}

TEST(AddressMap, ARegionAddedAfterLookupsIsFound) {
  AddressMap m;
  m.add({kBase + kStride, kBase + kStride + kBytes, 1, -1, RegionKind::kHbm, nullptr, "pe1"});
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 16)), nullptr);
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + kStride + 16))->pe, 1);
  m.add({kBase, kBase + kBytes, 0, -1, RegionKind::kHbm, nullptr, "pe0"});  // before it: indices move
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 16))->pe, 0);
  EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + kStride + 16))->pe, 1);
  // Two regions in one 64 KiB chunk: each address gets its own.
  m.add({kBase + 2 * kStride, kBase + 2 * kStride + 0x8000, 2, 0, RegionKind::kUnifiedBuffer, nullptr, "ub0"});
  m.add({kBase + 2 * kStride + 0x8000, kBase + 2 * kStride + 0x10000, 2, 1, RegionKind::kUnifiedBuffer, nullptr, "ub1"});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 2 * kStride + 0x100))->core, 0);
    EXPECT_EQ(m.find(reinterpret_cast<const void*>(kBase + 2 * kStride + 0x8100))->core, 1);
  }
}
