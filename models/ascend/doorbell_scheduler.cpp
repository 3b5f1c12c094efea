#include "models/ascend/doorbell_scheduler.h"

#include <algorithm>

#include "models/core/sim_now.h"
#include "models/ascend/udma_engine.h"

namespace symsim {

namespace {
Ps now_ps() { return sim_now_ps(); }
}  // namespace

DoorbellScheduler::DoorbellScheduler(sc_core::sc_module_name name) : sc_module(name) {
  m_recent.fill(Group{0, kNoSlot});
  SC_METHOD(process);
  sensitive << m_wake;
  dont_initialize();
}

void DoorbellScheduler::attach(UdmaEngine* engine) { m_engines.push_back(engine); }

// Inline: post's only call (out of line, a call and a frame a doorbell).
inline void DoorbellScheduler::wait(const DoorbellEvent& e) {
  for (const Group& g : m_recent) {
    if (g.t == e.t && g.slot != kNoSlot) {
      m_slots[g.slot].push_back(e);
      return;
    }
  }
  // A new group (an older group of this time may wait too: a batch sorts them together).
  uint32_t slot;
  if (!m_free_slots.empty()) {
    slot = m_free_slots.back();
    m_free_slots.pop_back();
  } else {
    slot = static_cast<uint32_t>(m_slots.size());
    m_slots.emplace_back();
  }
  m_slots[slot].push_back(e);
  m_groups.push(Group{e.t, slot});
  m_recent[m_recent_next] = Group{e.t, slot};
  m_recent_next = (m_recent_next + 1) % kRecent;
}

void DoorbellScheduler::post(DoorbellEvent e) {
  e.seq = m_seq++;
  // The earliest doorbell held: the batch's next (all due now) or the earliest waiting one.
  const Ps first = m_next < m_batch.size() ? m_batch[m_next].t : m_groups.empty() ? UINT64_MAX : m_groups.top().t;
  if (m_serving && e.t <= now_ps()) {
    // Rung while a batch is served (an engine's own store) and due already: served in order with it.
    m_batch.insert(std::upper_bound(m_batch.begin() + static_cast<std::ptrdiff_t>(m_next), m_batch.end(), e), e);
  } else {
    wait(e);
  }
  if (e.t >= first) return;  // the wake-up already pending comes first
  const Ps now = now_ps();
  m_wake.notify(sc_core::sc_time::from_value(e.t > now ? e.t - now : 0));
}

void DoorbellScheduler::process() {
  const Ps now = now_ps();
  m_batch.clear();
  m_next = 0;
  while (!m_groups.empty() && m_groups.top().t <= now) {
    const uint32_t slot = m_groups.top().slot;
    m_groups.pop();
    std::vector<DoorbellEvent>& group = m_slots[slot];
    if (m_batch.empty()) {
      m_batch.swap(group);  // no copy: the slot keeps the old batch's buffer
    } else {
      m_batch.insert(m_batch.end(), group.begin(), group.end());
    }
    group.clear();
    m_free_slots.push_back(slot);
    for (Group& r : m_recent)
      if (r.slot == slot) r.slot = kNoSlot;
  }
  std::sort(m_batch.begin(), m_batch.end());
  m_serving = true;
  while (m_next < m_batch.size()) {
    const DoorbellEvent ev = m_batch[m_next++];
    m_engines[ev.pe]->serve(ev);
  }
  m_serving = false;
  if (!m_groups.empty()) m_wake.notify(sc_core::sc_time::from_value(m_groups.top().t - now));
}

}  // namespace symsim
