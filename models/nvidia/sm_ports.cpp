#include "models/nvidia/sm_ports.h"

#include <algorithm>

namespace symsim::nv {

Ps SmUnit::reserve(Ps ready, Ps duration) {
  if (duration == 0) return ready;
  // Slots far behind any thread that can still come (threads are at most a quantum apart
  // and never behind SystemC time) are done with.
  constexpr int64_t kKeepSlots = 1024;  // 16 us
  const int64_t first = static_cast<int64_t>(ready / kSlotPs);
  while (!m_used.empty() && m_used.begin()->first < first - kKeepSlots) m_used.erase(m_used.begin());
  int64_t slot = first;
  Ps start = 0;
  bool started = false;
  Ps left = duration;
  for (;; ++slot) {
    Ps& used = m_used[slot];  // time the slot has given out, wherever in it
    if (used >= kSlotPs) continue;
    if (!started) start = std::max(ready, static_cast<Ps>(slot) * kSlotPs + used), started = true;
    const Ps take = std::min(kSlotPs - used, left);
    used += take;
    left -= take;
    if (left == 0) return start;
  }
}

}  // namespace symsim::nv
