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
  if (it != m_regions.end()) m_cache.clear();  // the indices from `it` on move
  m_begins.insert(m_begins.begin() + i, r.begin);
  m_ends.insert(m_ends.begin() + i, r.end);
  m_regions.insert(it, std::move(r));
}

const Region* AddressMap::find_uncached(uintptr_t a, uint64_t len) const {
  const uintptr_t chunk = a >> kChunkShift;
  // Above 48 bits (none in user space) a chunk is not kept: its low 32 bits could be kEmpty.
  const bool keyed = chunk < kEmpty;
  if (const uint32_t* i = keyed ? m_cache.find(static_cast<uint32_t>(chunk)) : nullptr;
      i && a >= m_begins[*i] && a < m_ends[*i])
    return a + len > m_ends[*i] ? nullptr : &m_regions[*i];
  const auto it = std::upper_bound(m_begins.begin(), m_begins.end(), a);
  if (it == m_begins.begin()) return nullptr;
  const auto i = static_cast<size_t>(it - m_begins.begin()) - 1;
  if (a >= m_ends[i]) return nullptr;
  if (keyed) m_cache.set(static_cast<uint32_t>(chunk), static_cast<uint32_t>(i));
  if (a + len > m_ends[i]) return nullptr;
  return &m_regions[i];
}

}  // namespace symsim
