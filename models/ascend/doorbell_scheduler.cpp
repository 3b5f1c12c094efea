#include "models/ascend/doorbell_scheduler.h"
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
  const bool earliest = m_events.empty() || e.t < m_events.top().t;
  m_events.push(e);
  if (!earliest) return;  // the wake-up already pending comes first
  const Ps now = now_ps();
  m_wake.notify(sc_core::sc_time::from_value(e.t > now ? e.t - now : 0));
}

void DoorbellScheduler::process() {
  const Ps now = now_ps();
  while (!m_events.empty() && m_events.top().t <= now) {
    const DoorbellEvent ev = m_events.top();
    m_events.pop();
    m_engines[ev.pe]->serve(ev);
  }
  if (!m_events.empty()) m_wake.notify(sc_core::sc_time::from_value(m_events.top().t - now));
}

}  // namespace symsim
