#include "models/memory/address_map.h"

#include <algorithm>
#include <stdexcept>

namespace symsim {

void AddressMap::add(Region r) {
  auto it = std::lower_bound(m_regions.begin(), m_regions.end(), r.begin,
                             [](const Region& a, uintptr_t b) { return a.begin < b; });
  if ((it != m_regions.end() && it->begin < r.end) ||
      (it != m_regions.begin() && std::prev(it)->end > r.begin))
    throw std::logic_error("overlapping address regions: " + r.name);
  const auto i = it - m_regions.begin();
  if (it != m_regions.end()) clear_cache();  // the indices from `it` on move
  m_begins.insert(m_begins.begin() + i, r.begin);
  m_ends.insert(m_ends.begin() + i, r.end);
  m_regions.insert(it, std::move(r));
}

const Region* AddressMap::find_uncached(uintptr_t a, uint64_t len) const {
  const uintptr_t chunk = a >> kChunkShift;
  const size_t mask = m_cache.size() - 1;
  for (size_t s = slot_of(chunk);; s = (s + 1) & mask) {  // the chunk's slot, if it has one
    const Slot& slot = m_cache[s];
    if (slot.chunk == kEmpty) break;
    if (slot.chunk == static_cast<uint32_t>(chunk) && a >= m_begins[slot.index] && a < m_ends[slot.index])
      return a + len > m_ends[slot.index] ? nullptr : &m_regions[slot.index];
  }
  const auto it = std::upper_bound(m_begins.begin(), m_begins.end(), a);
  if (it == m_begins.begin()) return nullptr;
  const auto i = static_cast<size_t>(it - m_begins.begin()) - 1;
  if (a >= m_ends[i]) return nullptr;
  remember(chunk, i);
  if (a + len > m_ends[i]) return nullptr;
  return &m_regions[i];
}

void AddressMap::remember(uintptr_t chunk, size_t index) const {
  if (chunk >= kEmpty) return;  // above 48 bits (none in user space): keys stay whole, rehashing stays exact
  const size_t mask = m_cache.size() - 1;
  size_t s = slot_of(chunk);
  while (m_cache[s].chunk != kEmpty && m_cache[s].chunk != static_cast<uint32_t>(chunk)) s = (s + 1) & mask;
  if (m_cache[s].chunk == kEmpty) ++m_cached;
  m_cache[s] = {static_cast<uint32_t>(chunk), static_cast<uint32_t>(index)};
  if (4 * m_cached <= m_cache.size()) return;
  std::vector<Slot> old(m_cache.size() * 2);
  old.swap(m_cache);
  --m_slot_shift;
  const size_t new_mask = m_cache.size() - 1;
  for (const Slot& o : old) {
    if (o.chunk == kEmpty) continue;
    size_t t = slot_of(o.chunk);
    while (m_cache[t].chunk != kEmpty) t = (t + 1) & new_mask;
    m_cache[t] = o;
  }
}

void AddressMap::clear_cache() {
  std::fill(m_cache.begin(), m_cache.end(), Slot{});
  m_cached = 0;
}

}  // namespace symsim
