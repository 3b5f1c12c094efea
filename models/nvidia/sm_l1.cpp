#include "models/nvidia/sm_l1.h"

#include <algorithm>

namespace symsim::nv {

Ps SmL1::hit_return_ps(uint64_t addr, uint32_t bytes, Ps sample, Ps hit_ps) {
  if (m_capacity_lines == 0 || bytes == 0) return 0;
  const uint64_t first = addr / kLineBytes, last = (addr + bytes - 1) / kLineBytes;
  bool held = true;
  for (uint64_t line = first; line <= last; ++line) held &= m_lines.touch(line);
  if (!held) return 0;
  Ps ready = sample + hit_ps;
  for (uint64_t line = first; line <= last; ++line)
    if (auto it = m_fill_ps.find(line); it != m_fill_ps.end()) ready = std::max(ready, it->second);
  return ready;
}

void SmL1::filled(uint64_t addr, uint32_t bytes, Ps ready) {
  if (m_capacity_lines == 0 || bytes == 0) return;
  // Fill times of lines that left are dropped now and then, so the map stays near the capacity.
  if (m_fill_ps.size() > 2 * m_capacity_lines + 64) {
    for (auto it = m_fill_ps.begin(); it != m_fill_ps.end();) it = m_lines.holds(it->first) ? std::next(it) : m_fill_ps.erase(it);
  }
  for (uint64_t line = addr / kLineBytes; line <= (addr + bytes - 1) / kLineBytes; ++line) m_fill_ps[line] = ready;
}

void SmL1::clear() {
  m_lines.drop_oldest(m_lines.size());
  m_fill_ps.clear();
}

}  // namespace symsim::nv
