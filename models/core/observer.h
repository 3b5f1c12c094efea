// Narrow hooks through which tracing, statistics, checkers and fault injectors watch the
// models. Model code calls `hooks.emit(&Observer::on_x, ...)`; with no observer attached
// that is one empty-vector test.
#pragma once
#include <cstdint>
#include <vector>

#include "models/core/time.h"

namespace symsim {

// Identifies a QP: the PE that owns it, the peer slot it reaches, and its index in the slot.
struct QpRef {
  int pe = 0;
  int slot = 0;
  int qp = 0;
};

// Everything the engine did for one WQE, with the times of each step.
struct WqeRecord {
  QpRef qp;
  uint32_t wqe_index = 0;  // monotonic WQEBB index of the WQE's first block
  uint8_t opcode = 0;
  uint8_t flags = 0;
  uint32_t bytes = 0;
  int target_pe = -1;
  uint64_t remote_va = 0;
  uint64_t local_va = 0;
  Ps doorbell_ps = 0;
  Ps fetch_ps = 0;          // WQE bytes read from the ring
  Ps wire_ps = 0;           // head enters the fabric
  Ps remote_write_ps = 0;   // last byte visible at the target
  Ps complete_ps = 0;       // completion known to the engine (ACK / read data landed)
  Ps cqe_ps = 0;            // CQE visible in the CQ ring (0 when none was asked for)
  uint32_t cqe_index = 0;   // monotonic CQ position when a CQE was written
  uint8_t status = 0;
  uint8_t substatus = 0;
};

class Observer {
 public:
  virtual ~Observer() = default;
  // Kernel side (shim).
  virtual void on_wqe_posted(const QpRef&, uint32_t wqe_index, uint8_t opcode, int core, Ps t) {}
  virtual void on_cqe_reaped(const QpRef&, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) {}
  virtual void on_core_span(int pe, int core, const char* what, Ps start, Ps end) {}
  // Engine side.
  virtual void on_sq_doorbell(const QpRef&, uint32_t producer_index, Ps t) {}
  virtual void on_cq_doorbell(const QpRef&, uint32_t consumer_index, Ps t) {}
  virtual void on_wqe_executed(const WqeRecord&) {}
  virtual void on_engine_busy(int pe, Ps start, Ps end) {}
  // A doorbell that moved the producer index backwards or past the ring depth.
  virtual void on_doorbell_regression(const QpRef&, uint32_t old_index, uint32_t new_index, Ps t) {}
  // The engine had a CQE to write and the CQ had no free slot.
  virtual void on_cq_overflow(const QpRef&, uint32_t produced, uint32_t consumed, Ps t) {}
  // Fabric.
  virtual void on_link_busy(int link, Ps start, Ps end, uint64_t bytes) {}
};

class Hooks {
 public:
  void attach(Observer* o) { m_observers.push_back(o); }
  bool active() const { return !m_observers.empty(); }
  template <typename Fn, typename... Args>
  void emit(Fn fn, const Args&... args) const {
    for (Observer* o : m_observers) (o->*fn)(args...);
  }

 private:
  std::vector<Observer*> m_observers;
};

}  // namespace symsim
