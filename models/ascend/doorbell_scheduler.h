// The doorbells of every UDMA engine of a platform in one time-ordered queue, served by one
// SC_METHOD in (time, PE, QP, arrival) order. Engines acting at the same instant then do so in
// a fixed order (their fabric and HBM reservations with them), whatever order SystemC resumed
// the cores that rang them.
//
// Served in batches: waiting doorbells are filed in groups of one time each (the 32 doorbells of
// a put-heavy round are rung for one instant), the groups in a heap by time. A wake-up takes every
// group due, sorts their doorbells once and serves them in that order. A heap of doorbells paid a
// sift per post and per serve, each moving 32-byte events over about six levels.
#pragma once
#include <systemc>

#include <array>
#include <cstdint>
#include <queue>
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
  // Files a waiting doorbell in its time's group.
  void wait(const DoorbellEvent& e);

  std::vector<UdmaEngine*> m_engines;
  struct Group {
    Ps t;
    uint32_t slot;  // its doorbells: m_slots[slot], in arrival order
    bool operator>(const Group& o) const { return t > o.t; }  // groups of one time may come in any order
  };
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  std::priority_queue<Group, std::vector<Group>, std::greater<Group>> m_groups;
  std::vector<std::vector<DoorbellEvent>> m_slots;
  std::vector<uint32_t> m_free_slots;
  // The groups made last that still wait: a core rings each QP for the next few rounds in a row
  // (put-heavy: 4-5 times, again for its next QP), so a doorbell mostly finds its group here.
  static constexpr size_t kRecent = 8;
  std::array<Group, kRecent> m_recent;  // slot kNoSlot: none
  size_t m_recent_next = 0;  // where the next new group goes (the oldest is replaced)
  std::vector<DoorbellEvent> m_batch;    // due at this wake-up, sorted; served from m_next
  size_t m_next = 0;
  bool m_serving = false;  // in process's loop: a doorbell due now joins the batch
  uint64_t m_seq = 0;
  sc_core::sc_event m_wake;
};

}  // namespace symsim
