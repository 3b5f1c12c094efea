// The runnable CUDA threads of one GPU in (time, arrival) order. Most threads become runnable
// at a time other threads already wait for (a barrier or warp release wakes a whole CTA or
// warp at one time): each distinct time has a FIFO bucket, and only distinct times go
// through the heap. Same order as one binary heap of (time, sequence number), at O(1) for a
// thread that joins an existing time.
// Nothing is allocated per push once warm: a bucket's FIFO is linked through the threads
// themselves (CudaThread::ready_next; a thread waits in at most one queue, once), and times
// find their bucket through an open-addressing index in a flat array. Between two steps of
// one GPU every other GPU runs, so the queue is cold at each step: a pop touches the heap
// top and one 32-byte bucket, and the next thread (peek) is the bucket's head pointer. Each
// link also carries where the linked thread's stack resumes, so that the scheduler can
// prefetch the next thread's stack without first reading its cold state.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "models/core/probe_index.h"
#include "models/core/time.h"
#include "models/nvidia/cuda_thread.h"

namespace symsim::nv {

class ReadyQueue {
 public:
  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  // `stack_sp`: where the thread's stack will resume (for prefetching; may be null).
  void push(Ps t_ps, CudaThread* th, const void* stack_sp = nullptr) {
    th->ready_next = nullptr;
    Bucket& k = m_buckets[bucket_for(t_ps)];
    if (k.head) {
      k.tail->ready_next = th;
      m_last_sp = &(k.tail->ready_next_sp = stack_sp);
    } else {
      k.head = th;
      m_last_sp = &(k.head_sp = stack_sp);
    }
    k.tail = th;
    ++m_size;
  }
  // The thread pushed last has suspended at `stack_sp` (not known when it pushed itself); only
  // right after that push, before any other.
  void set_last_sp(const void* stack_sp) { *m_last_sp = stack_sp; }
  // Earliest time with a runnable thread (not empty).
  Ps top_ps() const { return m_times.top().first; }
  // The thread that became runnable first at the earliest time; removes it (not empty).
  CudaThread* pop() {
    const uint32_t b = m_times.top().second;
    Bucket& k = m_buckets[b];
    CudaThread* th = k.head;
    k.head = th->ready_next;
    k.head_sp = th->ready_next_sp;
    --m_size;
    if (!k.head) drained(b);
    return th;
  }
  // The thread pop() would return next, or null (nothing removed).
  CudaThread* peek() const { return m_size == 0 ? nullptr : m_buckets[m_times.top().second].head; }
  // Its `stack_sp` (not read from the thread, whose state is as cold as its stack).
  const void* peek_sp() const { return m_size == 0 ? nullptr : m_buckets[m_times.top().second].head_sp; }
  void clear();

 private:
  static constexpr uint32_t kNone = ProbeIndex::kNone;
  struct Bucket {
    Ps t = 0;
    CudaThread* head = nullptr;  // null: free
    CudaThread* tail = nullptr;
    const void* head_sp = nullptr;  // the head's stack_sp (the others' are in ready_next_sp)
  };
  uint32_t bucket_for(Ps t_ps) {
    if (m_last != kNone && m_buckets[m_last].t == t_ps && m_buckets[m_last].head) return m_last;
    return m_last = find_or_add(t_ps);
  }
  uint32_t find_or_add(Ps t_ps);
  void drained(uint32_t b);
  auto time_of() const {
    return [this](uint32_t b) { return m_buckets[b].t; };
  }

  std::vector<Bucket> m_buckets;
  std::vector<uint32_t> m_free;  // drained buckets
  uint32_t m_live_buckets = 0;
  ProbeIndex m_index{6};  // bucket by time; at most half full
  std::priority_queue<std::pair<Ps, uint32_t>, std::vector<std::pair<Ps, uint32_t>>, std::greater<>> m_times;
  uint32_t m_last = kNone;  // bucket of the last push (the common case: the same time again)
  size_t m_size = 0;
  const void** m_last_sp = nullptr;  // where the last push kept its stack_sp
};

}  // namespace symsim::nv
