// ChunkedVector: indexes like a vector across chunk edges, and keeps references while it grows.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/checkers/chunked_vector.h"

using symsim::ChunkedVector;

TEST(ChunkedVector, IndexesAcrossChunksAndKeepsReferences) {
  ChunkedVector<uint64_t, 8> v;
  EXPECT_TRUE(v.empty());
  v.push_back(100);
  const uint64_t* first = &v[0];
  std::vector<uint64_t> want{100};
  for (uint64_t i = 1; i < 1000; ++i) {
    v.push_back(i * 3 + 1);
    want.push_back(i * 3 + 1);
  }
  ASSERT_EQ(v.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(v[i], want[i]) << i;
  EXPECT_EQ(first, &v[0]);  // grown 124 chunks, never moved
  EXPECT_EQ(v.back(), want.back());
  v[7] = 5;  // the last item of the first chunk
  v[8] = 6;  // the first of the second
  EXPECT_EQ(v[7], 5u);
  EXPECT_EQ(v[8], 6u);
  v.clear();
  EXPECT_TRUE(v.empty());
  v.push_back(42);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0], 42u);
}
