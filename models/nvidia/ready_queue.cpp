#include "models/nvidia/ready_queue.h"

namespace symsim::nv {

uint32_t ReadyQueue::find_or_add(Ps t_ps) {
  const size_t mask = m_index.size() - 1;
  for (size_t i = home(t_ps); m_index[i] != kNone; i = (i + 1) & mask)
    if (m_buckets[m_index[i]].t == t_ps) return m_index[i];
  if ((m_live_buckets + 1) * 2 > m_index.size()) grow_index();
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
  index_insert(b);
  m_times.push({t_ps, b});
  return b;
}

void ReadyQueue::drained(uint32_t b) {
  m_times.pop();
  index_erase(m_buckets[b].t);
  m_buckets[b].tail = nullptr;
  --m_live_buckets;
  m_free.push_back(b);
}

void ReadyQueue::index_insert(uint32_t b) {
  const size_t mask = m_index.size() - 1;
  size_t i = home(m_buckets[b].t);
  while (m_index[i] != kNone) i = (i + 1) & mask;
  m_index[i] = b;
}

void ReadyQueue::index_erase(Ps t) {
  const size_t mask = m_index.size() - 1;
  size_t hole = home(t);
  while (m_buckets[m_index[hole]].t != t) hole = (hole + 1) & mask;
  // Linear probing without tombstones: move later entries of the run back into the hole
  // unless their home lies cyclically after the hole (they are reachable from there already).
  for (size_t j = (hole + 1) & mask; m_index[j] != kNone; j = (j + 1) & mask) {
    const size_t h = home(m_buckets[m_index[j]].t);
    const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
    if (stays) continue;
    m_index[hole] = m_index[j];
    hole = j;
  }
  m_index[hole] = kNone;
}

void ReadyQueue::grow_index() {
  std::vector<uint32_t> live;
  for (uint32_t i : m_index)
    if (i != kNone) live.push_back(i);
  m_index.assign(m_index.size() * 2, kNone);
  --m_shift;
  for (uint32_t b : live) index_insert(b);
}

void ReadyQueue::clear() {
  for (Bucket& k : m_buckets) k = Bucket{};
  m_free.clear();
  for (uint32_t b = static_cast<uint32_t>(m_buckets.size()); b-- > 0;) m_free.push_back(b);
  m_index.assign(m_index.size(), kNone);
  m_live_buckets = 0;
  m_times = {};
  m_last = kNone;
  m_size = 0;
}

}  // namespace symsim::nv
