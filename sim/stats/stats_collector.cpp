#include "sim/stats/stats_collector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "models/fabric/fabric.h"

namespace symsim {
namespace {

// ns with 3 decimals, exact: integer ps / 1000 is correctly rounded and prints shortest.
double ps_to_ns3(Ps ps) { return static_cast<double>(ps) / 1000.0; }

double round4(double x) { return std::round(x * 1e4) / 1e4; }

double utilization(Ps busy_ps, Ps sim_time_ps) {
  return sim_time_ps ? round4(static_cast<double>(busy_ps) / static_cast<double>(sim_time_ps)) : 0.0;
}

// Latency in whole ns (rounded), saturating: 4.29 s is far past any run.
uint32_t latency_ns(Ps from, Ps to) {
  const Ps ns = ((to > from ? to - from : 0) + 500) / 1000;
  return static_cast<uint32_t>(std::min<Ps>(ns, std::numeric_limits<uint32_t>::max()));
}

nlohmann::json latency_json(std::vector<uint32_t> v) {
  nlohmann::json j = {{"count", v.size()}};
  j["p50"] = nearest_rank_percentile(v, 50);
  j["p90"] = nearest_rank_percentile(v, 90);
  j["p99"] = nearest_rank_percentile(v, 99);
  j["max"] = nearest_rank_percentile(v, 100);
  return j;
}

}  // namespace

uint32_t nearest_rank_percentile(std::vector<uint32_t>& values, uint32_t percent) {
  if (values.empty()) return 0;
  const uint64_t n = values.size();
  const uint64_t rank = std::max<uint64_t>(1, (uint64_t{std::min(percent, 100u)} * n + 99) / 100);
  const auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

void StatsCollector::on_sq_doorbell(const QpRef& q, uint32_t, Ps) {
  ++qp(q).doorbells;
  ++pe(q.pe).doorbells;
  ++m_total_doorbells;
}

void StatsCollector::on_cq_doorbell(const QpRef& q, uint32_t, Ps) {
  ++qp(q).cq_doorbells;
  ++pe(q.pe).cq_doorbells;
}

void StatsCollector::on_wqe_executed(const WqeRecord& r) {
  QpStats& s = qp(r.qp);
  PeStats& pes = pe(r.qp.pe);
  const bool ok = r.status == 0;
  const uint64_t bytes = ok ? r.bytes : 0;  // an error WQE moves nothing
  const bool cqe = r.cqe_ps != 0;
  ++s.wqes, ++pes.wqes, ++m_total_wqes;
  s.bytes += bytes, pes.bytes += bytes, m_total_bytes += bytes;
  s.cqes += cqe, pes.cqes += cqe, m_total_cqes += cqe;
  s.errors += !ok, pes.errors += !ok, m_total_errors += !ok;
  if (ok) s.latency_ns.push_back(latency_ns(r.doorbell_ps, cqe ? r.cqe_ps : r.complete_ps));
}

void StatsCollector::on_engine_busy(int pe, Ps start, Ps end) {
  if (end > start) this->pe(pe).busy_ps += end - start;
}

void StatsCollector::on_cqe_reaped(const QpRef& q, uint32_t, const uint8_t*, int, Ps) { ++qp(q).cqes_reaped; }

void StatsCollector::on_doorbell_regression(const QpRef& q, uint32_t, uint32_t, Ps) {
  ++qp(q).doorbell_regressions;
}

void StatsCollector::on_cq_overflow(const QpRef& q, uint32_t, uint32_t, Ps) { ++qp(q).cq_overflows; }

nlohmann::json StatsCollector::to_json(Ps sim_time_ps, const Fabric& fabric) const {
  using nlohmann::json;
  static const PeStats kIdle;
  // QPs with activity, grouped by PE in (slot, qp) order.
  std::map<int, std::vector<std::pair<QpRef, const QpStats*>>> qps_of;
  for (const auto& [ref, q] : m_qps.in_order()) {
    // Reaping and CQ doorbells alone count as activity: they show a kernel's side of a QP.
    if (!q->wqes && !q->doorbells && !q->cq_doorbells && !q->cqes_reaped && !q->doorbell_regressions &&
        !q->cq_overflows)
      continue;
    qps_of[ref.pe].emplace_back(ref, q);
  }
  const int n_pes = std::max<int>(fabric.n_pes(), static_cast<int>(m_pes.size()));
  json out_pes = json::array();
  for (int pe = 0; pe < n_pes; ++pe) {
    const PeStats* s = static_cast<size_t>(pe) < m_pes.size() ? &m_pes[static_cast<size_t>(pe)] : &kIdle;
    json qps = json::array();
    for (const auto& [ref, q] : qps_of[pe]) {
      qps.push_back({{"slot", ref.slot},
                     {"qp", ref.qp},
                     {"wqes", q->wqes},
                     {"bytes", q->bytes},
                     {"doorbells", q->doorbells},
                     {"cq_doorbells", q->cq_doorbells},
                     {"cqes", q->cqes},
                     {"cqes_reaped", q->cqes_reaped},
                     {"errors", q->errors},
                     {"doorbell_regressions", q->doorbell_regressions},
                     {"cq_overflows", q->cq_overflows},
                     {"latency_ns", latency_json(q->latency_ns)}});
    }
    json engine = {{"wqes", s->wqes},
                   {"bytes", s->bytes},
                   {"doorbells", s->doorbells},
                   {"cq_doorbells", s->cq_doorbells},
                   {"cqes", s->cqes},
                   {"errors", s->errors},
                   {"busy_ns", ps_to_ns3(s->busy_ps)},
                   {"utilization", utilization(s->busy_ps, sim_time_ps)}};
    out_pes.push_back({{"pe", pe}, {"engine", std::move(engine)}, {"qps", std::move(qps)}});
  }

  json links = json::array();
  for (const auto& l : fabric.links()) {
    if (l->bytes() == 0) continue;
    links.push_back({{"id", l->id()},
                     {"name", l->name()},
                     {"bytes", l->bytes()},
                     {"messages", l->messages()},
                     {"busy_ns", ps_to_ns3(l->busy_ps())},
                     {"utilization", utilization(l->busy_ps(), sim_time_ps)}});
  }

  json totals = {{"wqes", m_total_wqes},
                 {"bytes", m_total_bytes},
                 {"doorbells", m_total_doorbells},
                 {"cqes", m_total_cqes},
                 {"errors", m_total_errors}};
  return {{"pes", std::move(out_pes)}, {"links", std::move(links)}, {"totals", std::move(totals)}};
}

}  // namespace symsim
