#include "models/nvidia/tma_engine_mva.h"

#include <algorithm>
#include <cmath>

#include "models/nvidia/sm_ports.h"

namespace symsim::nv {

namespace {
// One step of exact MVA in units of E: from Q_{k-1} to Q_k (r_k = 1 + Q_{k-1}, X_k = k / (r_k + d), Q_k = X_k r_k).
double mva_step(uint32_t k, double q, double away_per_engine) {
  const double r = 1 + q;
  return static_cast<double>(k) * r / (r + away_per_engine);
}
// What an arrival sees at population n, linear between whole populations: the queue Q(n - 1) and
// the engine's use U(n - 1) = X(n - 1) E, from one MVA recursion (X_k = k / (r_k + d)).
struct Seen {
  double queue;
  double busy;
};
Seen seen_at(double n, double away_per_engine) {
  const uint32_t lo = static_cast<uint32_t>(std::floor(n));
  double q_before = 0, x_before = 0, q = 0, x = 0;  // at lo - 1 and at lo
  for (uint32_t k = 1; k <= lo; ++k) {
    q_before = q, x_before = x;
    x = static_cast<double>(k) / (1 + q + away_per_engine);
    q = mva_step(k, q, away_per_engine);
  }
  if (n <= lo) return {q_before, x_before};
  return {q_before + (n - lo) * (q - q_before), x_before + (n - lo) * (x - x_before)};
}
}  // namespace

double TmaEngineMva::queue_seen(uint32_t n, double away_per_engine) {
  double q = 0;
  for (uint32_t k = 1; k < n; ++k) q = mva_step(k, q, away_per_engine);
  return q;
}

double TmaEngineMva::queue_seen_at(double n, double away_per_engine) {
  // Between two whole populations, linearly: the wait moves smoothly as threads' shares move.
  return seen_at(n, away_per_engine).queue;
}

double TmaEngineMva::linear_queue_seen(double n, double away_per_engine) {
  return std::max((n - 1) / (1 + away_per_engine), n - 1 - away_per_engine);
}

double TmaEngineMva::wait_seen(double n, double queue, double busy, double mean_ps, double biased_ps, bool pair_fixed) {
  if (pair_fixed && n <= 2) return (queue - busy) * mean_ps + busy * biased_ps / 2;  // queue = busy here
  return queue * mean_ps + busy * (biased_ps - mean_ps);
}

void TmaEngineMva::new_segment() {
  for (Thread& th : m_threads) th = Thread{};
  m_count = 0;
  m_away_ps = m_engine_ps = m_all_engine_ps = m_engine_sq_ps2 = 0;
  m_visit_ps = m_visit_sq_ps2 = 0;
  m_passes = 0;
}

Ps TmaEngineMva::book(SmUnit& fifo, uint32_t tid, Ps ready_ps, Ps engine_ps, bool pass_linear, bool pair_fixed) {
  if (m_threads.size() <= tid) m_threads.resize(tid + 1);
  Thread& th = m_threads[tid];
  const bool first = !th.seen;
  if (first) th.seen = true, ++m_count;
  const double e = static_cast<double>(engine_ps);
  m_all_engine_ps += e;
  m_engine_sq_ps2 += e * (2 * th.engine_ps + e);  // (S + e)^2 - S^2
  th.engine_ps += e;
  // A pass: copies of one thread, each issued before its previous one has left the engine.
  const bool behind_own = !first && ready_ps < th.end_ps;
  if (!behind_own) th.visit_ps = 0, ++m_passes, th.last_pass_copies = th.pass_copies, th.pass_copies = 0;
  ++th.pass_copies;
  m_visit_ps += e;
  m_visit_sq_ps2 += e * (2 * th.visit_ps + e);
  th.visit_ps += e;
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
  // The wait is paid once a pass: a copy issued behind its own joins that pass. An arriving pass
  // waits for the passes the closed queue puts ahead of it, Q(N-1) of the mean pass, one of them
  // (with the engine's use seen, U(N-1)) the pass in service, which an arrival more likely meets in
  // a long pass: the length-biased mean, sum v^2 / sum v (thirty-seventh pass (s31-wait)).
  Seen seen = seen_at(n, d);
  if (pass_linear && th.last_pass_copies >= 2 && d >= n - 1) seen.queue = linear_queue_seen(n, d);
  const double biased_ps = m_visit_sq_ps2 / m_visit_ps;
  const double mean_ps = m_visit_ps / m_passes;
  const double wait_ps = wait_seen(n, seen.queue, seen.busy, mean_ps, biased_ps, pair_fixed);
  const Ps wait = behind_own ? 0 : static_cast<Ps>(wait_ps + 0.5);
  const Ps start = std::max(ready_ps, th.end_ps) + wait;
  th.end_ps = start + engine_ps;
  return start;
}

}  // namespace symsim::nv
