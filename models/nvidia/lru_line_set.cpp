#include "models/nvidia/lru_line_set.h"

#include <stdexcept>
#include <utility>

namespace symsim::nv {

namespace {
constexpr unsigned kFirstIndexBits = 10;
// An access touches its lines in address order (a 7 KiB message is 56 lines): runs of 16
// consecutive lines share an index line instead of taking a cache miss each.
constexpr unsigned kRunBits = 4;
}

LruLineSet::LruLineSet(uint64_t capacity_lines)
    : m_capacity(capacity_lines), m_index(kFirstIndexBits, kRunBits) {
  if (capacity_lines >= kNone) throw std::invalid_argument("an L2 of 2^32 lines or more is not supported");
}

void LruLineSet::unlink(uint32_t node) {
  Node& x = m_nodes[node];
  (x.newer == kNone ? m_newest : m_nodes[x.newer].older) = x.older;
  (x.older == kNone ? m_oldest : m_nodes[x.older].newer) = x.newer;
}

void LruLineSet::push_newest(uint32_t node) {
  Node& x = m_nodes[node];
  x.newer = kNone;
  x.older = m_newest;
  if (m_newest != kNone) m_nodes[m_newest].newer = node;
  m_newest = node;
  if (m_oldest == kNone) m_oldest = node;
}

bool LruLineSet::touch(uint64_t line, bool write) {
  if (m_capacity == 0) return false;
  uint32_t n = find(line);
  if (n != kNone) {
    if (n != m_newest) {
      unlink(n);
      push_newest(n);
    }
    m_dirty[n] |= static_cast<uint8_t>(write);
    if (write) m_read[n] = 0;
    return true;
  }
  if (m_nodes.size() == m_capacity) {  // the oldest line's node takes the new line
    n = m_oldest;
    m_index.erase(m_nodes[n].line, line_of());
    unlink(n);
    m_nodes[n].line = line;
    m_dirty_evictions += m_dirty[n];
    m_dirty[n] = static_cast<uint8_t>(write);
    m_read[n] = 0;
  } else {
    if ((m_nodes.size() + 1) * 2 > m_index.capacity()) m_index.grow(line_of());
    n = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back({line, kNone, kNone});
    m_dirty.push_back(static_cast<uint8_t>(write));
    m_read.push_back(0);
  }
  push_newest(n);
  m_index.insert(n, line_of());
  return false;
}

void LruLineSet::drop_oldest(uint64_t n) {
  if (n == 0 || m_nodes.empty()) return;
  // The survivors, oldest first, are put back in order: rare (a host memset), so rebuilt
  // rather than given a free list that every touch would have to check.
  struct Kept {
    uint64_t line;
    bool dirty, read;
  };
  std::vector<Kept> kept;
  uint32_t node = m_oldest;
  for (uint64_t i = 0; i < n && node != kNone; ++i, node = m_nodes[node].newer) m_dirty_evictions += m_dirty[node];
  for (; node != kNone; node = m_nodes[node].newer) kept.push_back({m_nodes[node].line, m_dirty[node] != 0, m_read[node] != 0});
  m_nodes.clear();
  m_dirty.clear();
  m_read.clear();
  m_index.clear();
  m_newest = m_oldest = kNone;
  for (const Kept& k : kept) {
    touch(k.line, k.dirty);
    if (k.read) mark_read(k.line);
  }
}

}  // namespace symsim::nv
