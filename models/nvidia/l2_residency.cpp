#include "models/nvidia/l2_residency.h"

#include <algorithm>

namespace symsim::nv {

bool L2Residency::access(uintptr_t a, uint64_t bytes, bool write) {
  m_last_dirty_victims = 0;
  if (bytes == 0 || m_capacity_lines == 0) return false;
  const uint64_t dirty_before = m_lines.dirty_evictions();
  bool all = true;
  const uint64_t last = (a + bytes - 1) / kLineBytes;
  uint64_t first = a / kLineBytes;
  if (last - first >= m_capacity_lines) {  // only the tail can stay
    first = last - m_capacity_lines + 1;
    all = false;
  }
  for (uint64_t line = first; line <= last; ++line)
    if (!m_lines.touch(line, write)) all = false;
  m_last_dirty_victims = m_lines.dirty_evictions() - dirty_before;
  return all;
}

bool L2Residency::reread(uintptr_t a, uint64_t bytes) {
  if (bytes == 0 || m_capacity_lines == 0) return false;
  bool all = true;
  for (uint64_t line = a / kLineBytes; line <= (a + bytes - 1) / kLineBytes; ++line) {
    all &= m_lines.read_since_write(line);
    m_lines.mark_read(line);
  }
  return all;
}

void L2Residency::displace(uint64_t bytes) {
  const uint64_t lines = (bytes + kLineBytes - 1) / kLineBytes;
  const uint64_t held = m_lines.size();
  if (held + lines > m_capacity_lines) m_lines.drop_oldest(held + lines - m_capacity_lines);
}

Ps L2Residency::atomic_slot(uintptr_t addr, Ps arrive_ps, uint64_t warp_key, Ps issue_ps, Ps same_address_ps) {
  auto [it, fresh] = m_atomics.try_emplace(addr);
  AtomicAddr& s = it->second;
  if (!fresh && s.warp_key == warp_key && s.issue_ps == issue_ps) return std::max(arrive_ps, s.performed_ps);
  const Ps at = fresh ? arrive_ps : std::max(arrive_ps, s.performed_ps + same_address_ps);
  s = {at, warp_key, issue_ps};
  return at;
}

}  // namespace symsim::nv
