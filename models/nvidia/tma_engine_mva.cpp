#include "models/nvidia/tma_engine_mva.h"

#include <algorithm>
#include <cmath>

#include "models/nvidia/sm_ports.h"

namespace symsim::nv {

namespace {
// The queue at population k in units of E: Q_k, the mean number at the engine, and U_k, its busy
// fraction (the throughput X_k times E).
struct Mva {
  double q = 0;
  double u = 0;
};

// One step of MVA in units of E, from population k - 1 to k: r_k = 1 + Q_{k-1} - U_{k-1} (1 - c2) / 2
// (the copy in service has (1 + c2) / 2 of its time left: all of it for exponential times, c2 = 1, half
// for fixed ones, c2 = 0), X_k = k / (r_k + d), Q_k = X_k r_k. With c2 = 1 this is exact MVA and the
// throughput never reaches 1 / E; with c2 < 1 the approximation can: there X_k = 1 / E and the
// threads not at the engine are X_k D (Little), so Q_k = k - d.
Mva mva_step(uint32_t k, Mva s, double away_per_engine, double service_cv2) {
  const double r = 1 + s.q - s.u * (1 - service_cv2) / 2;
  const double x = static_cast<double>(k) / (r + away_per_engine);
  if (service_cv2 >= 1) return {static_cast<double>(k) * r / (r + away_per_engine), x};
  if (x >= 1) return {static_cast<double>(k) - away_per_engine, 1};
  return {x * r, x};
}

// The wait in units of E of a copy arriving at population n's queue (before: population n - 1's):
// r_n - 1, and with c2 < 1 no less than keeps the engine busy at most all the time (n rounds of E
// at least: r_n + d >= n).
double wait_seen(uint32_t n, Mva before, double away_per_engine, double service_cv2) {
  if (service_cv2 >= 1) return before.q;
  const double w = before.q - before.u * (1 - service_cv2) / 2;
  return std::max(w, static_cast<double>(n) - 1 - away_per_engine);
}

Mva mva_at(uint32_t n, double away_per_engine, double service_cv2) {
  Mva s;
  for (uint32_t k = 1; k < n; ++k) s = mva_step(k, s, away_per_engine, service_cv2);
  return s;
}
}  // namespace

double TmaEngineMva::queue_seen(uint32_t n, double away_per_engine, double service_cv2) {
  return wait_seen(n, mva_at(n, away_per_engine, service_cv2), away_per_engine, service_cv2);
}

double TmaEngineMva::queue_seen_at(double n, double away_per_engine, double service_cv2) {
  // Between two whole populations, linearly: the wait moves smoothly as threads' shares move.
  // Population lo + 1's queue before the arrival is one step past lo's: one recursion for both ends.
  const uint32_t lo = static_cast<uint32_t>(std::floor(n));
  const Mva s_lo = mva_at(lo, away_per_engine, service_cv2);
  const double w_lo = wait_seen(lo, s_lo, away_per_engine, service_cv2);
  if (n <= lo) return w_lo;
  const double w_hi = wait_seen(lo + 1, mva_step(lo, s_lo, away_per_engine, service_cv2), away_per_engine, service_cv2);
  return w_lo + (n - lo) * (w_hi - w_lo);
}

Ps TmaEngineMva::book(SmUnit& fifo, uint32_t tid, Ps ready_ps, Ps engine_ps, double service_cv2) {
  if (m_threads.size() <= tid) m_threads.resize(tid + 1);
  Thread& th = m_threads[tid];
  const bool first = !th.seen;
  if (first) th.seen = true, ++m_count;
  const double e = static_cast<double>(engine_ps);
  m_all_engine_ps += e;
  m_engine_sq_ps2 += e * (2 * th.engine_ps + e);  // (S + e)^2 - S^2
  th.engine_ps += e;
  if (m_count < 2 || first) {
    const Ps start = fifo.reserve(ready_ps, engine_ps);
    th.end_ps = std::max(th.end_ps, start + engine_ps);
    return start;
  }
  m_away_ps += static_cast<double>(ready_ps > th.end_ps ? ready_ps - th.end_ps : 0);
  m_engine_ps += static_cast<double>(engine_ps);
  const double d = m_away_ps / m_engine_ps;
  // The population: the threads' participation ratio by engine time, (sum S)^2 / sum S^2 (N warps
  // alike: N; a lane that issued a few copies beside them a small part of one, not one).
  const double n = std::max(1.0, m_all_engine_ps * m_all_engine_ps / m_engine_sq_ps2);
  const Ps wait = static_cast<Ps>(static_cast<double>(engine_ps) * queue_seen_at(n, d, service_cv2) + 0.5);
  const Ps start = std::max(ready_ps, th.end_ps) + wait;
  th.end_ps = start + engine_ps;
  return start;
}

}  // namespace symsim::nv
