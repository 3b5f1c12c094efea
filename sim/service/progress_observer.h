// Watches a running simulation and emits a `progress` event (simulated time, WQEs, bytes) at
// most every `interval_s` of wall time. Observing only: it schedules no simulation events,
// so the run stays byte-identical to one without it.
#pragma once
#include <chrono>
#include <cstdint>

#include "models/core/observer.h"
#include "sim/service/event_sink.h"

namespace symsim::service {

class ProgressObserver : public Observer {
 public:
  ProgressObserver(EventSink& sink, double interval_s);
  void on_wqe_executed(const WqeRecord& r) override;
  void on_sq_doorbell(const QpRef&, uint32_t, Ps t) override { tick(t); }
  void on_core_span(int, int, const char*, Ps, Ps end) override { tick(end); }
  // The last progress event, at the end of the run.
  void finish(Ps end_ps);

 private:
  void tick(Ps t);
  void emit(Ps t);
  EventSink& m_sink;
  std::chrono::steady_clock::duration m_interval;
  std::chrono::steady_clock::time_point m_start, m_next;
  uint64_t m_wqes = 0, m_bytes = 0, m_calls = 0;
  Ps m_latest_ps = 0;
};

}  // namespace symsim::service
