#include "models/nvidia/ready_queue.h"

namespace symsim::nv {

uint32_t ReadyQueue::find_or_add(Ps t_ps) {
  const uint32_t found = m_index.find(t_ps, time_of());
  if (found != kNone) return found;
  if ((m_live_buckets + 1) * 2 > m_index.capacity()) m_index.grow(time_of());
  uint32_t b;
  if (!m_free.empty()) {
    b = m_free.back();
    m_free.pop_back();
  } else {
    b = static_cast<uint32_t>(m_buckets.size());
    m_buckets.emplace_back();
  }
  m_buckets[b].t = t_ps;
  ++m_live_buckets;
  m_index.insert(b, time_of());
  m_times.push({t_ps, b});
  return b;
}

void ReadyQueue::drained(uint32_t b) {
  m_times.pop();
  m_index.erase(m_buckets[b].t, time_of());
  m_buckets[b].tail = nullptr;
  --m_live_buckets;
  m_free.push_back(b);
}

void ReadyQueue::clear() {
  for (Bucket& k : m_buckets) k = Bucket{};
  m_free.clear();
  for (uint32_t b = static_cast<uint32_t>(m_buckets.size()); b-- > 0;) m_free.push_back(b);
  m_index.clear();
  m_live_buckets = 0;
  m_times = {};
  m_last = kNone;
  m_size = 0;
  m_last_sp = nullptr;
}

}  // namespace symsim::nv
