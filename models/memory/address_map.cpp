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
  m_regions.insert(it, std::move(r));
}

const Region* AddressMap::find(const void* p, uint64_t len) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = std::upper_bound(m_regions.begin(), m_regions.end(), a,
                             [](uintptr_t x, const Region& r) { return x < r.begin; });
  if (it == m_regions.begin()) return nullptr;
  --it;
  if (a >= it->end || a + len > it->end) return nullptr;
  return &*it;
}

}  // namespace symsim
