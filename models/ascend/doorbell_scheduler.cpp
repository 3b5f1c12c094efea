#include "models/ascend/doorbell_scheduler.h"

#include <algorithm>

#include "models/core/sim_now.h"
#include "models/ascend/udma_engine.h"

namespace symsim {

namespace {
Ps now_ps() { return sim_now_ps(); }
}  // namespace

DoorbellScheduler::DoorbellScheduler(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(process);
  sensitive << m_wake;
  dont_initialize();
}

void DoorbellScheduler::attach(UdmaEngine* engine) { m_engines.push_back(engine); }

void DoorbellScheduler::post(DoorbellEvent e) {
  e.seq = m_seq++;
  // The earliest doorbell held: the batch's next (all due now) or the earliest waiting one.
  const Ps first = m_next < m_batch.size() ? m_batch[m_next].t : m_waiting_first_ps;
  if (m_serving && e.t <= now_ps()) {
    // Rung while a batch is served (an engine's own store) and due already: served in order with it.
    m_batch.insert(std::upper_bound(m_batch.begin() + static_cast<std::ptrdiff_t>(m_next), m_batch.end(), e), e);
  } else {
    m_waiting.push_back(e);
    m_waiting_first_ps = std::min(m_waiting_first_ps, e.t);
  }
  if (e.t >= first) return;  // the wake-up already pending comes first
  const Ps now = now_ps();
  m_wake.notify(sc_core::sc_time::from_value(e.t > now ? e.t - now : 0));
}

void DoorbellScheduler::process() {
  const Ps now = now_ps();
  m_batch.clear();
  m_next = 0;
  Ps first = UINT64_MAX;
  size_t kept = 0;
  for (const DoorbellEvent& e : m_waiting) {
    if (e.t <= now) {
      m_batch.push_back(e);
    } else {
      first = std::min(first, e.t);
      m_waiting[kept++] = e;
    }
  }
  m_waiting.resize(kept);
  m_waiting_first_ps = first;
  std::sort(m_batch.begin(), m_batch.end());
  m_serving = true;
  while (m_next < m_batch.size()) {
    const DoorbellEvent ev = m_batch[m_next++];
    m_engines[ev.pe]->serve(ev);
  }
  m_serving = false;
  if (m_waiting_first_ps != UINT64_MAX) m_wake.notify(sc_core::sc_time::from_value(m_waiting_first_ps - now));
}

}  // namespace symsim
