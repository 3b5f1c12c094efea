// The doorbells of every UDMA engine of a platform in one time-ordered queue, served by one
// SC_METHOD in (time, PE, QP, arrival) order. Engines acting at the same instant then do so in
// a fixed order (their fabric and HBM reservations with them), whatever order SystemC resumed
// the cores that rang them.
//
// Served in batches: a wake-up takes every doorbell due by then out of the waiting list, sorts
// them once and serves them in that order (put-heavy: one batch of 32 doorbells per round). A
// heap paid a sift per post and per serve, each moving 32-byte events over about six levels.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

#include "models/core/time.h"

namespace symsim {

class UdmaEngine;

struct DoorbellEvent {
  Ps t;
  int pe;
  int qp;
  uint64_t seq;  // arrival order, the last tie-break
  bool cq;       // a CQ doorbell (else an SQ doorbell)
  uint32_t value;
  // Serving order; seq is unique, so no two doorbells tie.
  bool operator<(const DoorbellEvent& o) const {
    if (t != o.t) return t < o.t;
    if (pe != o.pe) return pe < o.pe;
    if (qp != o.qp) return qp < o.qp;
    return seq < o.seq;
  }
};

class DoorbellScheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DoorbellScheduler);
  explicit DoorbellScheduler(sc_core::sc_module_name name);
  void attach(UdmaEngine* engine);  // engines in PE order
  // A doorbell reaches engine `pe` at `e.t` (seq is filled in here).
  void post(DoorbellEvent e);

 private:
  void process();

  std::vector<UdmaEngine*> m_engines;
  std::vector<DoorbellEvent> m_waiting;  // not yet taken into a batch, in arrival order
  Ps m_waiting_first_ps = UINT64_MAX;    // the earliest waiting doorbell's time
  std::vector<DoorbellEvent> m_batch;    // due at this wake-up, sorted; served from m_next
  size_t m_next = 0;
  bool m_serving = false;  // in process's loop: a doorbell due now joins the batch
  uint64_t m_seq = 0;
  sc_core::sc_event m_wake;
};

}  // namespace symsim
