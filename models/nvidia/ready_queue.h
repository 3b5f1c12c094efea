// The runnable CUDA threads of one GPU in (time, arrival) order. Most threads become runnable
// at a time other threads already wait for (a barrier or warp release wakes a whole CTA or
// warp at one time): each distinct time has a FIFO bucket, and only distinct times go
// through the heap. Same order as one binary heap of (time, sequence number), at O(1) for a
// thread that joins an existing time.
// Nothing is allocated per push once warm: a bucket's FIFO is linked through the threads
// themselves (CudaThread::ready_next; a thread waits in at most one queue, once), and times
// find their bucket through an open-addressing index in a flat array. Between two steps of
// one GPU every other GPU runs, so the queue is cold at each step: a pop touches the heap
// top and one 24-byte bucket, and the next thread (peek) is the bucket's head pointer.
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
  void push(Ps t_ps, CudaThread* th) {
    th->ready_next = nullptr;
    Bucket& k = m_buckets[bucket_for(t_ps)];
    (k.head ? k.tail->ready_next : k.head) = th;
    k.tail = th;
    ++m_size;
  }
  // Earliest time with a runnable thread (not empty).
  Ps top_ps() const { return m_times.top().first; }
  // The thread that became runnable first at the earliest time; removes it (not empty).
  CudaThread* pop() {
    const uint32_t b = m_times.top().second;
    Bucket& k = m_buckets[b];
    CudaThread* th = k.head;
    k.head = th->ready_next;
    --m_size;
    if (!k.head) drained(b);
    return th;
  }
  // The thread pop() would return next, or null (nothing removed).
  CudaThread* peek() const { return m_size == 0 ? nullptr : m_buckets[m_times.top().second].head; }
  void clear();

 private:
  static constexpr uint32_t kNone = ProbeIndex::kNone;
  struct Bucket {
    Ps t = 0;
    CudaThread* head = nullptr;  // null: free
    CudaThread* tail = nullptr;
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
};

}  // namespace symsim::nv
