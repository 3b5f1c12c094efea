#include "sim/service/progress_observer.h"

#include <algorithm>

namespace symsim::service {

ProgressObserver::ProgressObserver(EventSink& sink, double interval_s)
    : m_sink(sink),
      m_interval(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(interval_s))),
      m_start(std::chrono::steady_clock::now()),
      m_next(m_start + m_interval) {}

void ProgressObserver::on_wqe_executed(const WqeRecord& r) {
  ++m_wqes;
  m_bytes += r.bytes;
  tick(r.fetch_ps);
}

void ProgressObserver::tick(Ps t) {
  m_latest_ps = std::max(m_latest_ps, t);
  if (!m_sink.active() || (++m_calls & 63) != 0) return;  // read the clock every 64 callbacks
  const auto now = std::chrono::steady_clock::now();
  if (now < m_next) return;
  m_next = now + m_interval;
  emit(m_latest_ps);
}

void ProgressObserver::finish(Ps end_ps) { emit(std::max(end_ps, m_latest_ps)); }

void ProgressObserver::emit(Ps t) {
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  m_sink.emit({{"event", "progress"},
               {"sim_time_ns", ps_to_ns(t)},
               {"wqes", m_wqes},
               {"bytes", m_bytes},
               {"wall_s", wall_s}});
}

}  // namespace symsim::service
