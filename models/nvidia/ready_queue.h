// The runnable CUDA threads of one GPU in (time, arrival) order. Most threads become runnable
// at a time other threads already wait for (a barrier or warp release wakes a whole CTA or
// warp at one time): each distinct time has a FIFO bucket, and only distinct times go
// through the heap. Same order as one binary heap of (time, sequence number), at O(1) for a
// thread that joins an existing time.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/core/time.h"

namespace symsim::nv {

struct CudaThread;

class ReadyQueue {
 public:
  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  void push(Ps t_ps, CudaThread* th);
  // Earliest time with a runnable thread (not empty).
  Ps top_ps() const { return m_times.top().first; }
  // The thread that became runnable first at the earliest time; removes it (not empty).
  CudaThread* pop();
  // The thread pop() would return next, or null (nothing removed).
  CudaThread* peek() const {
    if (m_size == 0) return nullptr;
    const Bucket& k = m_buckets[m_times.top().second];
    return k.threads[k.head];
  }
  void clear();

 private:
  struct Bucket {
    Ps t = 0;
    std::vector<CudaThread*> threads;
    size_t head = 0;  // threads before it have been popped
  };
  uint32_t bucket_for(Ps t_ps);

  std::vector<Bucket> m_buckets;  // drained ones are reused (their vectors keep capacity)
  std::vector<uint32_t> m_free;
  std::unordered_map<Ps, uint32_t> m_by_time;
  std::priority_queue<std::pair<Ps, uint32_t>, std::vector<std::pair<Ps, uint32_t>>, std::greater<>> m_times;
  uint32_t m_last = UINT32_MAX;  // bucket of the last push (the common case: the same time again)
  size_t m_size = 0;
};

}  // namespace symsim::nv
