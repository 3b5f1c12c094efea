#include "sim/stats/stats_collector.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "sim/catalog/hazard_id.h"
#include "sim/catalog/statistic.h"
#include "models/fabric/fabric.h"

namespace symsim {
namespace {

// The statistics this collector writes, each registered (`symsim list stats`) and used as its
// JSON key below.
constexpr Statistic kQpWqes{"wqes", "pes[].qps[]", "count", family::kAll, "WQEs the engine executed on the QP"};
SYMSIM_REGISTER_STATISTIC(kQpWqes);
constexpr Statistic kQpBytes{"bytes", "pes[].qps[]", "B", family::kAll, "payload of the QP's WQEs that succeeded"};
SYMSIM_REGISTER_STATISTIC(kQpBytes);
constexpr Statistic kQpDoorbells{"doorbells", "pes[].qps[]", "count", family::kAll, "SQ doorbells that moved the producer index"};
SYMSIM_REGISTER_STATISTIC(kQpDoorbells);
constexpr Statistic kQpCqDoorbells{"cq_doorbells", "pes[].qps[]", "count", family::kAll, "CQ doorbells (consumer index updates)"};
SYMSIM_REGISTER_STATISTIC(kQpCqDoorbells);
constexpr Statistic kQpCqes{"cqes", "pes[].qps[]", "count", family::kAll, "CQEs written"};
SYMSIM_REGISTER_STATISTIC(kQpCqes);
constexpr Statistic kQpCqesReaped{"cqes_reaped", "pes[].qps[]", "count", family::kAll, "CQEs a kernel polled"};
SYMSIM_REGISTER_STATISTIC(kQpCqesReaped);
constexpr Statistic kQpErrors{"errors", "pes[].qps[]", "count", family::kAll, "WQEs completed with an error"};
SYMSIM_REGISTER_STATISTIC(kQpErrors);
constexpr Statistic kQpDoorbellRegressions{"doorbell_regressions", "pes[].qps[]", "count", family::kAll, "doorbells that moved the producer index backwards"};
SYMSIM_REGISTER_STATISTIC(kQpDoorbellRegressions);
constexpr Statistic kQpCqOverflows{"cq_overflows", "pes[].qps[]", "count", family::kAll, "CQEs lost to a full CQ"};
SYMSIM_REGISTER_STATISTIC(kQpCqOverflows);
constexpr Statistic kQpLatency{"latency_ns", "pes[].qps[]", "ns", family::kAll, "doorbell to CQE (or to completion without a CQE) of successful WQEs: count, p50, p90, p99, max"};
SYMSIM_REGISTER_STATISTIC(kQpLatency);
constexpr Statistic kEngineWqes{"wqes", "pes[].engine", "count", family::kAll, "WQEs the PE's engine (NIC) executed"};
SYMSIM_REGISTER_STATISTIC(kEngineWqes);
constexpr Statistic kEngineBytes{"bytes", "pes[].engine", "B", family::kAll, "payload of the engine's WQEs that succeeded"};
SYMSIM_REGISTER_STATISTIC(kEngineBytes);
constexpr Statistic kEngineDoorbells{"doorbells", "pes[].engine", "count", family::kAll, "SQ doorbells the engine received"};
SYMSIM_REGISTER_STATISTIC(kEngineDoorbells);
constexpr Statistic kEngineCqDoorbells{"cq_doorbells", "pes[].engine", "count", family::kAll, "CQ doorbells the engine received"};
SYMSIM_REGISTER_STATISTIC(kEngineCqDoorbells);
constexpr Statistic kEngineCqes{"cqes", "pes[].engine", "count", family::kAll, "CQEs the engine wrote"};
SYMSIM_REGISTER_STATISTIC(kEngineCqes);
constexpr Statistic kEngineErrors{"errors", "pes[].engine", "count", family::kAll, "WQEs the engine completed with an error"};
SYMSIM_REGISTER_STATISTIC(kEngineErrors);
constexpr Statistic kEngineBusy{"busy_ns", "pes[].engine", "ns", family::kAll, "time the engine was busy fetching and executing WQEs"};
SYMSIM_REGISTER_STATISTIC(kEngineBusy);
constexpr Statistic kEngineUtilization{"utilization", "pes[].engine", "fraction", family::kAll, "busy_ns over the simulated time"};
SYMSIM_REGISTER_STATISTIC(kEngineUtilization);
constexpr Statistic kLinkBytes{"bytes", "links[]", "B", family::kAll, "bytes the link carried"};
SYMSIM_REGISTER_STATISTIC(kLinkBytes);
constexpr Statistic kLinkMessages{"messages", "links[]", "count", family::kAll, "messages the link carried"};
SYMSIM_REGISTER_STATISTIC(kLinkMessages);
constexpr Statistic kLinkBusy{"busy_ns", "links[]", "ns", family::kAll, "time the link was busy"};
SYMSIM_REGISTER_STATISTIC(kLinkBusy);
constexpr Statistic kLinkUtilization{"utilization", "links[]", "fraction", family::kAll, "busy_ns over the simulated time"};
SYMSIM_REGISTER_STATISTIC(kLinkUtilization);
constexpr Statistic kTotalWqes{"wqes", "totals", "count", family::kAll, "WQEs executed on every PE"};
SYMSIM_REGISTER_STATISTIC(kTotalWqes);
constexpr Statistic kTotalBytes{"bytes", "totals", "B", family::kAll, "payload of every WQE that succeeded"};
SYMSIM_REGISTER_STATISTIC(kTotalBytes);
constexpr Statistic kTotalDoorbells{"doorbells", "totals", "count", family::kAll, "SQ doorbells on every PE"};
SYMSIM_REGISTER_STATISTIC(kTotalDoorbells);
constexpr Statistic kTotalCqes{"cqes", "totals", "count", family::kAll, "CQEs written on every PE"};
SYMSIM_REGISTER_STATISTIC(kTotalCqes);
constexpr Statistic kTotalErrors{"errors", "totals", "count", family::kAll, "WQEs completed with an error"};
SYMSIM_REGISTER_STATISTIC(kTotalErrors);


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

// Nearest-rank position (0-based) of `percent` in `n` values.
uint64_t rank_index(uint64_t n, uint32_t percent) {
  return std::max<uint64_t>(1, (uint64_t{std::min(percent, 100u)} * n + 99) / 100) - 1;
}

nlohmann::json latency_json(const std::vector<uint32_t>& values) {
  nlohmann::json j = {{"count", values.size()}};
  if (values.empty()) {
    j["p50"] = j["p90"] = j["p99"] = j["max"] = 0u;
    return j;
  }
  const std::pair<const char*, uint32_t> ranks[] = {{"p50", 50}, {"p90", 90}, {"p99", 99}};
  const uint64_t n = values.size();
  const auto [lo_at, hi_at] = std::minmax_element(values.begin(), values.end());
  const uint32_t lo = *lo_at, hi = *hi_at;
  j["max"] = hi;
  if (uint64_t{hi} - lo < n) {
    // Values that span fewer ns than there are of them (a put's latencies, a few dozen ns
    // apart): counted by value, and each rank's value read off the running count. The same
    // values as the partial sort below, in two passes over the values and none over a copy.
    std::vector<uint64_t> count(hi - lo + 1);
    for (const uint32_t v : values) ++count[v - lo];
    uint64_t upto = 0;  // values at or below lo + i
    size_t r = 0;
    for (uint32_t i = 0; r < std::size(ranks); ++i) {
      upto += count[i];
      for (; r < std::size(ranks) && rank_index(n, ranks[r].second) < upto; ++r) j[ranks[r].first] = lo + i;
    }
    return j;
  }
  // The same values as nearest_rank_percentile for each, with one partial sort: each later rank
  // is searched only among the values at or above the one before.
  std::vector<uint32_t> v = values;
  auto from = v.begin();
  for (const auto& [key, percent] : ranks) {
    const auto nth = v.begin() + static_cast<std::ptrdiff_t>(rank_index(n, percent));
    std::nth_element(from, nth, v.end());
    j[key] = *nth;
    from = nth;
  }
  return j;
}

}  // namespace

uint32_t nearest_rank_percentile(std::vector<uint32_t>& values, uint32_t percent) {
  if (values.empty()) return 0;
  const auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank_index(values.size(), percent));
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

__attribute__((noinline)) StatsCollector::QpStats& StatsCollector::look_up(const QpRef& q) {
  m_last_qp = &m_qps[q];
  m_last_ref = q;
  return *m_last_qp;
}

void StatsCollector::on_sq_doorbell(const QpRef& q, uint32_t, Ps) { ++qp(q).doorbells; }

void StatsCollector::on_cq_doorbell(const QpRef& q, uint32_t, Ps) { ++qp(q).cq_doorbells; }

void StatsCollector::on_wqe_executed(const WqeRecord& r) {
  QpStats& s = qp(r.qp);
  const bool ok = r.status == 0;
  const bool cqe = r.cqe_ps != 0;
  ++s.wqes;
  s.bytes += ok ? r.bytes : 0;  // an error WQE moves nothing
  s.cqes += cqe;
  s.errors += !ok;
  if (ok) s.latency_ns.push_back(latency_ns(r.doorbell_ps, cqe ? r.cqe_ps : r.complete_ps));
}

StatsCollector::PeStats StatsCollector::totals() const {
  PeStats t;
  for (const auto& [ref, q] : m_qps.in_order()) t.add(*q);
  return t;
}

void StatsCollector::on_cqe_reaped(const QpRef& q, uint32_t, const uint8_t*, int, Ps) { ++qp(q).cqes_reaped; }

void StatsCollector::on_doorbell_regression(const QpRef& q, uint32_t, uint32_t, Ps) {
  ++qp(q).doorbell_regressions;
}

void StatsCollector::on_cq_overflow(const QpRef& q, uint32_t, uint32_t, Ps) { ++qp(q).cq_overflows; }

nlohmann::json StatsCollector::to_json(Ps sim_time_ps, const Fabric& fabric, const std::vector<Ps>& engine_busy_ps) const {
  using nlohmann::json;
  static const PeStats kIdle;
  // QPs with activity, grouped by PE in (slot, qp) order; each PE's counts and the totals are
  // their sums. A PE is listed up to the last one with an engine, a doorbell or a WQE.
  std::map<int, std::vector<std::pair<QpRef, const QpStats*>>> qps_of;
  // Up to the last PE whose engine was busy, as when each busy interval was heard (an empty one
  // added nothing).
  size_t busy_pes = engine_busy_ps.size();
  while (busy_pes > 0 && engine_busy_ps[busy_pes - 1] == 0) --busy_pes;
  std::vector<PeStats> pes(busy_pes);
  for (size_t pe = 0; pe < busy_pes; ++pe) pes[pe].busy_ps = engine_busy_ps[pe];
  PeStats total;
  for (const auto& [ref, q] : m_qps.in_order()) {
    if (q->wqes || q->doorbells || q->cq_doorbells) {
      if (static_cast<size_t>(ref.pe) >= pes.size()) pes.resize(static_cast<size_t>(ref.pe) + 1);
      pes[static_cast<size_t>(ref.pe)].add(*q);
      total.add(*q);
    }
    // Reaping and CQ doorbells alone count as activity: they show a kernel's side of a QP.
    if (!q->wqes && !q->doorbells && !q->cq_doorbells && !q->cqes_reaped && !q->doorbell_regressions &&
        !q->cq_overflows)
      continue;
    qps_of[ref.pe].emplace_back(ref, q);
  }
  const int n_pes = std::max<int>(fabric.n_pes(), static_cast<int>(pes.size()));
  json out_pes = json::array();
  for (int pe = 0; pe < n_pes; ++pe) {
    const PeStats* s = static_cast<size_t>(pe) < pes.size() ? &pes[static_cast<size_t>(pe)] : &kIdle;
    json qps = json::array();
    for (const auto& [ref, q] : qps_of[pe]) {
      // One object a QP, its members emplaced: an initializer list would build and take apart
      // a two-element array per member (a QP's entry is most of the result at large EP).
      json& entry = qps.emplace_back(json::value_t::object);
      json::object_t& o = *entry.get_ptr<json::object_t*>();
      o.emplace("slot", ref.slot);
      o.emplace("qp", ref.qp);
      o.emplace(kQpWqes.name, q->wqes);
      o.emplace(kQpBytes.name, q->bytes);
      o.emplace(kQpDoorbells.name, q->doorbells);
      o.emplace(kQpCqDoorbells.name, q->cq_doorbells);
      o.emplace(kQpCqes.name, q->cqes);
      o.emplace(kQpCqesReaped.name, q->cqes_reaped);
      o.emplace(kQpErrors.name, q->errors);
      o.emplace(kQpDoorbellRegressions.name, q->doorbell_regressions);
      o.emplace(kQpCqOverflows.name, q->cq_overflows);
      o.emplace(kQpLatency.name, latency_json(q->latency_ns));
    }
    json engine = {{kEngineWqes.name, s->wqes},
                   {kEngineBytes.name, s->bytes},
                   {kEngineDoorbells.name, s->doorbells},
                   {kEngineCqDoorbells.name, s->cq_doorbells},
                   {kEngineCqes.name, s->cqes},
                   {kEngineErrors.name, s->errors},
                   {kEngineBusy.name, ps_to_ns3(s->busy_ps)},
                   {kEngineUtilization.name, utilization(s->busy_ps, sim_time_ps)}};
    out_pes.push_back({{"pe", pe}, {"engine", std::move(engine)}, {"qps", std::move(qps)}});
  }

  json links = json::array();
  for (const auto& l : fabric.links()) {
    if (l->bytes() == 0) continue;
    links.push_back({{"id", l->id()},
                     {"name", l->name()},
                     {kLinkBytes.name, l->bytes()},
                     {kLinkMessages.name, l->messages()},
                     {kLinkBusy.name, ps_to_ns3(l->busy_ps())},
                     {kLinkUtilization.name, utilization(l->busy_ps(), sim_time_ps)}});
  }

  json totals = {{kTotalWqes.name, total.wqes},
                 {kTotalBytes.name, total.bytes},
                 {kTotalDoorbells.name, total.doorbells},
                 {kTotalCqes.name, total.cqes},
                 {kTotalErrors.name, total.errors}};
  return {{"pes", std::move(out_pes)}, {"links", std::move(links)}, {"totals", std::move(totals)}};
}

}  // namespace symsim
