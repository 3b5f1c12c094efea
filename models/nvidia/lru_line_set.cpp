#include "models/nvidia/lru_line_set.h"

#include <stdexcept>

namespace symsim::nv {

namespace {
constexpr unsigned kFirstIndexBits = 10;
}

LruLineSet::LruLineSet(uint64_t capacity_lines)
    : m_capacity(capacity_lines), m_index(size_t{1} << kFirstIndexBits, kNone), m_shift(64 - kFirstIndexBits) {
  if (capacity_lines >= kNone) throw std::invalid_argument("an L2 of 2^32 lines or more is not supported");
}

uint32_t LruLineSet::find(uint64_t line) const {
  const size_t mask = m_index.size() - 1;
  for (size_t i = home(line);; i = (i + 1) & mask) {
    const uint32_t n = m_index[i];
    if (n == kNone || m_nodes[n].line == line) return n;
  }
}

void LruLineSet::index_insert(uint32_t node) {
  const size_t mask = m_index.size() - 1;
  size_t i = home(m_nodes[node].line);
  while (m_index[i] != kNone) i = (i + 1) & mask;
  m_index[i] = node;
}

void LruLineSet::index_erase(uint64_t line) {
  const size_t mask = m_index.size() - 1;
  size_t hole = home(line);
  while (m_nodes[m_index[hole]].line != line) hole = (hole + 1) & mask;
  // Linear probing without tombstones: move later entries of the run back into the hole
  // unless their home lies cyclically after the hole (they are reachable from there already).
  for (size_t j = (hole + 1) & mask; m_index[j] != kNone; j = (j + 1) & mask) {
    const size_t h = home(m_nodes[m_index[j]].line);
    const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
    if (stays) continue;
    m_index[hole] = m_index[j];
    hole = j;
  }
  m_index[hole] = kNone;
}

void LruLineSet::grow_index() {
  m_index.assign(m_index.size() * 2, kNone);
  --m_shift;
  for (uint32_t n = 0; n < m_nodes.size(); ++n) index_insert(n);
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

bool LruLineSet::touch(uint64_t line) {
  if (m_capacity == 0) return false;
  uint32_t n = find(line);
  if (n != kNone) {
    if (n != m_newest) {
      unlink(n);
      push_newest(n);
    }
    return true;
  }
  if (m_nodes.size() == m_capacity) {  // the oldest line's node takes the new line
    n = m_oldest;
    index_erase(m_nodes[n].line);
    unlink(n);
    m_nodes[n].line = line;
  } else {
    if ((m_nodes.size() + 1) * 2 > m_index.size()) grow_index();
    n = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back({line, kNone, kNone});
  }
  push_newest(n);
  index_insert(n);
  return false;
}

}  // namespace symsim::nv
