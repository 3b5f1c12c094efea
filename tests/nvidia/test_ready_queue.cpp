// The scheduler's ready queue hands threads out in (time, arrival) order, the order of a binary
// heap of (time, sequence number): checked against one over a seeded run of pushes and pops
// in which most pushes join a time that already waits, as barrier releases do.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

#include "models/nvidia/ready_queue.h"

namespace {

using symsim::Ps;
using symsim::nv::CudaThread;
using symsim::nv::ReadyQueue;

// The queue links threads through CudaThread::ready_next: real threads, by number.
std::vector<std::unique_ptr<CudaThread>> g_threads;
CudaThread* thread_no(uintptr_t i) {
  while (g_threads.size() <= i) g_threads.push_back(std::make_unique<CudaThread>());
  return g_threads[i].get();
}

TEST(ReadyQueue, EarliestTimeFirstThenArrivalOrder) {
  ReadyQueue q;
  q.push(300, thread_no(0));
  q.push(100, thread_no(1));
  q.push(300, thread_no(2));
  q.push(100, thread_no(3));
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.top_ps(), 100u);
  EXPECT_EQ(q.pop(), thread_no(1));
  q.push(100, thread_no(4));  // joins the time being drained, behind the one still there
  EXPECT_EQ(q.pop(), thread_no(3));
  EXPECT_EQ(q.pop(), thread_no(4));
  EXPECT_EQ(q.top_ps(), 300u);
  EXPECT_EQ(q.pop(), thread_no(0));
  EXPECT_EQ(q.pop(), thread_no(2));
  EXPECT_TRUE(q.empty());
}

TEST(ReadyQueue, PeekGivesTheNextThreadsStackPointer) {
  ReadyQueue q;
  int stacks[4];
  q.push(100, thread_no(0), &stacks[0]);
  q.push(100, thread_no(1), &stacks[1]);
  q.push(100, thread_no(2));
  q.set_last_sp(&stacks[2]);  // the thread pushed last suspends after pushing itself
  q.push(50, thread_no(3), &stacks[3]);
  EXPECT_EQ(q.peek_sp(), &stacks[3]);
  q.pop();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(q.peek(), thread_no(i));
    EXPECT_EQ(q.peek_sp(), &stacks[i]);
    q.pop();
  }
  EXPECT_EQ(q.peek_sp(), nullptr);
}

TEST(ReadyQueue, ClearForgetsEverything) {
  ReadyQueue q;
  q.push(5, thread_no(0));
  q.push(7, thread_no(1));
  q.clear();
  EXPECT_TRUE(q.empty());
  q.push(9, thread_no(2));
  q.push(7, thread_no(3));
  EXPECT_EQ(q.pop(), thread_no(3));
  EXPECT_EQ(q.pop(), thread_no(2));
}

TEST(ReadyQueue, SameOrderAsAHeapOfTimeAndSequence) {
  using Entry = std::tuple<Ps, uint64_t, uintptr_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ref;
  ReadyQueue q;
  std::mt19937_64 rng(11);
  uint64_t seq = 0;
  std::vector<uintptr_t> idle;  // numbers of threads not in the queue
  uintptr_t fresh = 0;
  Ps now = 0;
  for (int i = 0; i < 200000; ++i) {
    if (ref.empty() || rng() % 100 < 52) {
      // Mostly a handful of times near now (releases), sometimes one far ahead or behind.
      const uint64_t r = rng() % 10;
      const Ps t = r < 7 ? now + (rng() % 4) * 1000 : r < 9 ? now + rng() % 1000000 : now - std::min<Ps>(now, rng() % 5000);
      uintptr_t next = fresh;
      if (idle.empty()) {
        ++fresh;
      } else {
        next = idle.back();
        idle.pop_back();
      }
      ref.push({t, seq++, next});
      q.push(t, thread_no(next));
    } else {
      ASSERT_EQ(q.top_ps(), std::get<0>(ref.top()));
      now = std::get<0>(ref.top());
      ASSERT_EQ(q.pop(), thread_no(std::get<2>(ref.top()))) << "pop at step " << i;
      idle.push_back(std::get<2>(ref.top()));
      ref.pop();
    }
    ASSERT_EQ(q.size(), ref.size());
  }
}

}  // namespace
