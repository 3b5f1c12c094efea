#include "models/nvidia/ready_queue.h"

namespace symsim::nv {

uint32_t ReadyQueue::bucket_for(Ps t_ps) {
  if (m_last != UINT32_MAX && m_buckets[m_last].t == t_ps && m_buckets[m_last].head < m_buckets[m_last].threads.size())
    return m_last;
  auto [it, fresh] = m_by_time.try_emplace(t_ps, 0);
  if (!fresh) return it->second;
  uint32_t b;
  if (!m_free.empty()) {
    b = m_free.back();
    m_free.pop_back();
  } else {
    b = static_cast<uint32_t>(m_buckets.size());
    m_buckets.emplace_back();
  }
  m_buckets[b].t = t_ps;
  it->second = b;
  m_times.push({t_ps, b});
  return b;
}

void ReadyQueue::push(Ps t_ps, CudaThread* th) {
  m_last = bucket_for(t_ps);
  m_buckets[m_last].threads.push_back(th);
  ++m_size;
}

CudaThread* ReadyQueue::pop() {
  const uint32_t b = m_times.top().second;
  Bucket& k = m_buckets[b];
  CudaThread* th = k.threads[k.head++];
  --m_size;
  if (k.head == k.threads.size()) {  // drained: its time leaves the heap
    m_times.pop();
    m_by_time.erase(k.t);
    k.threads.clear();
    k.head = 0;
    m_free.push_back(b);
  }
  return th;
}

void ReadyQueue::clear() {
  for (Bucket& k : m_buckets) {
    k.threads.clear();
    k.head = 0;
  }
  m_free.clear();
  for (uint32_t b = static_cast<uint32_t>(m_buckets.size()); b-- > 0;) m_free.push_back(b);
  m_by_time.clear();
  m_times = {};
  m_last = UINT32_MAX;
  m_size = 0;
}

}  // namespace symsim::nv
