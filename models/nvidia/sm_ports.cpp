#include "models/nvidia/sm_ports.h"

#include <algorithm>

namespace symsim::nv {

Ps SmUnit::reserve(Ps ready, Ps duration) {
  if (duration == 0) return ready;
  // Slots far behind any thread that can still come (threads are at most a quantum apart
  // and never behind SystemC time) are done with.
  constexpr int64_t kKeepSlots = 1024;  // 16 us
  const int64_t first = static_cast<int64_t>(ready / kSlotPs);
  if (!m_late.empty()) m_late.erase(m_late.begin(), m_late.lower_bound(first - kKeepSlots));
  m_base = std::max(m_base, first - kKeepSlots);
  int64_t slot = first;
  Ps start = 0;
  bool started = false;
  Ps left = duration;
  for (;; ++slot) {
    Ps& u = used(slot);
    if (u >= kSlotPs) continue;
    if (!started) start = std::max(ready, static_cast<Ps>(slot) * kSlotPs + u), started = true;
    const Ps take = std::min(kSlotPs - u, left);
    u += take;
    left -= take;
    if (left == 0) return start;
  }
}

void SmUnit::grow(int64_t span) {
  size_t capacity = 64;
  while (static_cast<int64_t>(capacity) < span) capacity *= 2;
  std::vector<Slot> slots(capacity);
  for (const Slot& s : m_slots)
    if (s.slot >= m_base) slots[static_cast<uint64_t>(s.slot) & (capacity - 1)] = s;
  m_slots.swap(slots);
}

}  // namespace symsim::nv
