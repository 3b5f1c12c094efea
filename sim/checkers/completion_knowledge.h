// What a PE knows about its own WQEs' completion, for the checkers that judge by
// happens-before: a WQE is known complete from the first time its PE reaped a CQE covering it
// (CQEs of a QP are written in order, so a CQE covers every earlier WQE of its QP), through the
// SHMEM API (quiet, a poll), a CQ doorbell past it, or a direct-drive kernel's read of a landed
// CQE slot. Everything here costs O(1) amortised per event and a binary search per query.
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>

#include "checkers/checker_context.h"
#include "models/core/qp_table.h"

namespace symsim {

class CompletionKnowledge {
 public:
  static constexpr Ps kNever = ~Ps{0};
  explicit CompletionKnowledge(CheckerContext& ctx) : m_ctx(ctx) {}

  void on_wqe_executed(const WqeRecord& r);
  void on_cqe_reaped(const QpRef& q, uint32_t cqe_index, Ps t, int core = -1);
  void on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t);
  // A core of `pe` read [addr, addr + bytes) at `t` (a poll of a CQE slot counts as a reap).
  void on_gm_observe(int pe, const uint8_t* addr, uint64_t bytes, Ps t, int core = -1);

  // When WQE `wqe` of `q` became known complete to its PE; kNever when not (yet). A record too
  // old to keep counts as known at time 0 (no report without proof).
  Ps known_complete_ps(const QpRef& q, uint32_t wqe) const { return known(q, wqe).t; }
  struct Known {
    Ps t;
    int core;  // the core that reaped it (-1: the host, a CQ doorbell, or unknown)
  };
  Known known(const QpRef& q, uint32_t wqe) const;

 private:
  struct Reap {
    Ps t;
    uint32_t upto;  // every WQE of the QP up to this index has completed
    int core;
  };
  struct QpState {
    std::deque<std::pair<uint32_t, uint32_t>> cqes;  // (CQE index, WQE index) not yet reaped
    std::deque<Reap> reaps;                          // oldest first, both fields increasing
    bool trimmed = false;
  };
  struct Slot {
    QpRef qp;
    uint32_t wqe;
    Ps cqe_ps;
  };
  void reap(QpState& s, uint32_t upto, Ps t, int core);

  CheckerContext& m_ctx;
  QpTable<QpState> m_qps;
  std::unordered_map<uint64_t, Slot> m_slots;  // CQE slot address -> the CQE written there last
  static constexpr size_t kKeep = 4096;
};

}  // namespace symsim
