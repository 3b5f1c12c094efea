// CompletionKnowledge's CQ rings by address: the index answers as the map of rings by base did
// (the ring with the greatest base at or below the address, when the address lies inside it),
// for rings that share a chunk (2 MiB), rings that straddle chunks, rings laid end to end as a
// PE's SQ and CQ rings are, rings added or replaced after
// their chunks were looked up, and addresses outside every ring.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>

#include "sim/checkers/cq_ring_index.h"

using namespace symsim;

namespace {

struct Owner {
  int id;
};

// The map's answer: the owner of the ring below `a` if `a` is inside it, else null.
const Owner* reference(const std::map<uintptr_t, std::pair<uint64_t, Owner*>>& rings, uintptr_t a) {
  auto it = rings.upper_bound(a);
  if (it == rings.begin()) return nullptr;
  --it;
  return a - it->first < it->second.first ? it->second.second : nullptr;
}

const Owner* indexed(const CqRingIndex<Owner>& index, uintptr_t a) {
  const auto* r = index.find(a);
  return r ? r->owner : nullptr;
}

}  // namespace

TEST(CqRingIndex, AnswersAsTheMapOfRingsByBase) {
  std::mt19937_64 rng(7);
  std::vector<Owner> owners(600);
  CqRingIndex<Owner> index;
  std::map<uintptr_t, std::pair<uint64_t, Owner*>> rings;
  const uintptr_t base = uintptr_t{1} << 40;
  const uint64_t span = uint64_t{64} << 20;  // 32 chunks: rings overlap and share chunks
  auto probe_all = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const uintptr_t a = base + rng() % span;
      ASSERT_EQ(indexed(index, a), reference(rings, a)) << "address offset " << (a - base);
    }
  };
  EXPECT_TRUE(index.empty());
  for (size_t i = 0; i < owners.size(); ++i) {
    owners[i].id = static_cast<int>(i);
    // Small rings (several in a chunk), 2 MiB rings (over many chunks), sizes not a chunk's.
    const uint64_t bytes = (i % 3 == 0) ? (uint64_t{2} << 20) : 64 * (1 + rng() % 700);
    const uintptr_t at = base + (rng() % (span / 64)) * 64;
    index.add(at, bytes, &owners[i]);  // a base met again replaces its ring, as in the map
    rings[at] = {bytes, &owners[i]};
    probe_all(200);  // the chunks met before the next add are classed again where it covers them
  }
  EXPECT_FALSE(index.empty());
  probe_all(20000);
  // The edges of every ring: its first and last byte, and the bytes just outside.
  for (const auto& [b, r] : rings)
    for (const uintptr_t a : {b - 1, b, b + r.first - 1, b + r.first})
      ASSERT_EQ(indexed(index, a), reference(rings, a)) << "address offset " << (a - base);
}

TEST(CqRingIndex, AnAddressOutsideEveryRingFindsNone) {
  std::vector<Owner> owners(2);
  CqRingIndex<Owner> index;
  const uintptr_t ring = uintptr_t{1} << 36;
  EXPECT_EQ(index.find(ring), nullptr);
  index.add(ring, 4096, &owners[0]);
  EXPECT_EQ(index.find(ring - 1), nullptr);
  EXPECT_EQ(indexed(index, ring), &owners[0]);
  EXPECT_EQ(indexed(index, ring + 4095), &owners[0]);
  EXPECT_EQ(index.find(ring + 4096), nullptr);
  // A second ring in the same chunk, after the chunk was classed as holding one.
  index.add(ring + 8192, 4096, &owners[1]);
  EXPECT_EQ(index.find(ring + 4096), nullptr);
  EXPECT_EQ(indexed(index, ring + 8192), &owners[1]);
  EXPECT_EQ(indexed(index, ring + 100), &owners[0]);
}

TEST(CqRingIndex, RingsEndToEndAsAPesSqAndCqRings) {
  // SQ, CQ, SQ, CQ ... of 2 MiB each from a base 4 KiB past a 2 MiB boundary; only the CQs are
  // indexed (as CompletionKnowledge does). Every chunk then holds parts of at most one CQ ring.
  const uint64_t ring = uint64_t{2} << 20;
  const uintptr_t base = (uintptr_t{1} << 40) + 4096;
  std::vector<Owner> owners(64);
  CqRingIndex<Owner> index;
  std::map<uintptr_t, std::pair<uint64_t, Owner*>> rings;
  std::mt19937_64 rng(11);
  for (size_t q = 0; q < owners.size(); ++q) {
    const uintptr_t cq = base + (2 * q + 1) * ring;
    index.add(cq, ring, &owners[q]);
    rings[cq] = {ring, &owners[q]};
    for (int i = 0; i < 100; ++i) {  // the CQE slots polled, and addresses in the SQs between
      const uintptr_t a = base + rng() % (2 * owners.size() * ring + ring);
      ASSERT_EQ(indexed(index, a), reference(rings, a)) << "address offset " << (a - base);
    }
  }
  for (size_t q = 0; q < owners.size(); ++q) {
    const uintptr_t cq = base + (2 * q + 1) * ring;
    EXPECT_EQ(indexed(index, cq), &owners[q]);
    EXPECT_EQ(indexed(index, cq + ring - 64), &owners[q]);
    EXPECT_EQ(index.find(cq - 1), nullptr);     // the SQ's last byte
    EXPECT_EQ(index.find(cq + ring), nullptr);  // the next SQ's first
  }
}
