// Fiber stacks cost only the pages a fiber uses: nothing touches a stack's lowest page (no
// canary), and a fiber that reaches that page is counted as an overflow when its stack is
// returned; the stack is clean again for the next fiber.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <vector>

#include "models/nvidia/fiber.h"

namespace {

using symsim::nv::Fiber;
using symsim::nv::StackPool;

constexpr size_t kStackBytes = 16384;
constexpr size_t kPage = 4096;

// Recurses, 256 B a frame, until the frame lies below `floor`.
__attribute__((noinline)) int descend(uintptr_t floor, int depth) {
  volatile char frame[256];
  frame[0] = static_cast<char>(depth);
  if (reinterpret_cast<uintptr_t>(&frame[0]) < floor) return frame[0];
  return descend(floor, depth + 1) + frame[0];
}

// Runs a fiber on `pool` that uses its stack down to `depth_bytes` below where its body starts.
void run_fiber(StackPool& pool, size_t depth_bytes) {
  Fiber f;
  f.start(pool, [depth_bytes]() {
    descend(reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - depth_bytes, 0);
  });
  f.resume();
  ASSERT_TRUE(f.finished());
}

bool resident(const void* page) {
  unsigned char v = 0;
  EXPECT_EQ(mincore(const_cast<void*>(page), kPage, &v), 0);
  return v & 1;
}

TEST(FiberStacks, ShallowFibersTouchOnlyTheirTopPages) {
  StackPool pool(kStackBytes);
  for (int i = 0; i < 8; ++i) run_fiber(pool, 2048);
  EXPECT_EQ(pool.overflows(), 0u);
  // Every stack of the first chunk: its lowest page was never touched.
  boost::context::stack_context sc = pool.allocate();
  const auto* low = static_cast<const uint8_t*>(sc.sp) - sc.size;
  EXPECT_FALSE(resident(low));
  pool.deallocate(sc);
  EXPECT_EQ(pool.overflows(), 0u);
}

TEST(FiberStacks, AFiberReachingTheLowestPageCountsAsAnOverflowOnce) {
  StackPool pool(kStackBytes);
  // Down to about 2 KiB above the stack's low end: inside its lowest page, not past it.
  run_fiber(pool, kStackBytes - 2048 - 1024);
  EXPECT_EQ(pool.overflows(), 1u);
  // The same stack is handed out next, clean: a shallow fiber on it adds nothing.
  run_fiber(pool, 1024);
  EXPECT_EQ(pool.overflows(), 1u);
}

}  // namespace
