// Counters, busy time and latency percentiles per PE engine, QP and link, for the "stats"
// object of result.json. Deterministic: ordered containers, integer counters, times in ns
// with at most 3 decimals (exact from picoseconds), utilizations rounded to 4 decimals.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <utility>
#include <vector>

#include "models/core/qp_table.h"

#include "models/core/observer.h"

namespace symsim {

class Fabric;

// Nearest-rank percentile (`percent` in 1..100) of `values`: the smallest value with at least
// `percent`% of values at or below it. Reorders `values`; 0 when empty.
uint32_t nearest_rank_percentile(std::vector<uint32_t>& values, uint32_t percent);

class StatsCollector : public Observer {
 public:
  void on_sq_doorbell(const QpRef& q, uint32_t producer_index, Ps t) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cqe_reaped(const QpRef& q, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) override;
  void on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index, Ps t) override;
  void on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) override;

  // {"pes":[{"pe","engine":{...},"qps":[...]}], "links":[...], "totals":{...}}: every PE of the
  // fabric (and any other PE seen), QPs with activity sorted by (slot, qp), links that carried
  // bytes in link-id order. Utilizations are over `sim_time_ps`. `engine_busy_ps[pe]`: how long
  // PE pe's engine (UdmaEngine, Nic) was busy, as the engine sums it: read here once instead of
  // heard per WQE (Observer::on_engine_busy, which the trace still hears).
  nlohmann::json to_json(Ps sim_time_ps, const Fabric& fabric, const std::vector<Ps>& engine_busy_ps = {}) const;

  uint64_t total_wqes() const { return totals().wqes; }
  uint64_t total_cqes() const { return totals().cqes; }
  uint64_t total_bytes() const { return totals().bytes; }  // payload of WQEs that succeeded

 private:
  struct QpStats {
    uint64_t wqes = 0, bytes = 0, doorbells = 0, cq_doorbells = 0, cqes = 0, cqes_reaped = 0, errors = 0,
             doorbell_regressions = 0, cq_overflows = 0;
    std::vector<uint32_t> latency_ns;  // doorbell -> CQE (-> completion when no CQE), OK WQEs only
  };
  // A PE's counts and the totals are sums over its QPs, made when asked (to_json): a hook
  // counts once, per QP, not three times. busy_ps is the engine's own (to_json's engine_busy_ps).
  struct PeStats {
    uint64_t wqes = 0, bytes = 0, doorbells = 0, cq_doorbells = 0, cqes = 0, errors = 0;
    Ps busy_ps = 0;
    void add(const QpStats& q) {
      wqes += q.wqes, bytes += q.bytes, doorbells += q.doorbells, cq_doorbells += q.cq_doorbells;
      cqes += q.cqes, errors += q.errors;
    }
  };
  PeStats totals() const;
  // Hooks arrive in runs for one QP: remember the last one looked up (map nodes are stable).
  // The lookups that miss (the table, a new PE) are out of line: inlined, every hook saved and
  // restored registers for them.
  QpStats& qp(const QpRef& q) {
    if (m_last_qp && m_last_ref.pe == q.pe && m_last_ref.slot == q.slot && m_last_ref.qp == q.qp) return *m_last_qp;
    return look_up(q);
  }
  QpStats& look_up(const QpRef& q);
  QpStats* m_last_qp = nullptr;
  QpRef m_last_ref;

  QpTable<QpStats> m_qps;
};

}  // namespace symsim
