// The visibility queue's index of records by 64 KiB chunk (visibility_queue_chunk_index.h): its
// table doubles as records pile up, and a chunk's records must still come newest first (the
// early writes' old bytes are laid over a stream in that order).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "models/memory/visibility_queue_chunk_index.h"

namespace {

using symsim::ChunkIndex;

std::vector<uint32_t> visit(const ChunkIndex& index, uint64_t chunk) {
  std::vector<uint32_t> ids;
  index.for_each(chunk, [&](uint32_t id) { ids.push_back(id); });
  return ids;
}

// Records spanning one to three chunks, filed and removed at random until the table has grown
// several times, against a list per chunk (newest first).
TEST(ChunkIndex, GrowsAndKeepsEachChunksRecordsNewestFirst) {
  ChunkIndex index;
  std::mt19937_64 rng(5);
  std::map<uint64_t, std::vector<uint32_t>> want;  // chunk -> ids, newest first
  struct Live {
    uint32_t id, node;
    uint64_t first, last;
  };
  std::vector<Live> live;
  uint32_t next_id = 0;
  for (int step = 0; step < 40000; ++step) {
    if (live.empty() || rng() % 8 != 0) {
      const uint64_t first = rng() % 3000;  // chunks shared by many records
      const uint64_t last = first + rng() % 3;
      const uint32_t id = next_id++;
      live.push_back({id, index.insert(id, first, last), first, last});
      for (uint64_t c = first; c <= last; ++c) want[c].insert(want[c].begin(), id);
    } else {
      const size_t i = rng() % live.size();
      index.erase(live[i].node);
      for (uint64_t c = live[i].first; c <= live[i].last; ++c) {
        auto& ids = want[c];
        ids.erase(std::find(ids.begin(), ids.end(), live[i].id));
      }
      live[i] = live.back();
      live.pop_back();
    }
  }
  EXPECT_GE(index.buckets(), 16384u);  // tens of thousands of nodes filed: doubled from 1,024 several times
  for (uint64_t c = 0; c < 3003; ++c) EXPECT_EQ(visit(index, c), want[c]) << "chunk " << c;
}

// A bucket split while a chunk holds several records keeps them in order, and chunks never
// filed stay empty.
TEST(ChunkIndex, OneChunkKeepsItsOrderAcrossGrowth) {
  ChunkIndex index;
  std::vector<uint32_t> want;
  for (uint32_t id = 0; id < 5000; ++id) {
    index.insert(id, id % 2 == 0 ? 77 : 1000 + id, id % 2 == 0 ? 77 : 1000 + id);
    if (id % 2 == 0) want.insert(want.begin(), id);
  }
  EXPECT_GT(index.buckets(), 1024u);
  EXPECT_EQ(visit(index, 77), want);
  EXPECT_TRUE(visit(index, 78).empty());
}

}  // namespace
