// The SM's TMA engine as a mean-value closed queue (tma.engine_mva): one issuing thread keeps
// the FIFO engine; once threads share it each one's round comes out at the closed queue's mean
// (the exact MVA of hw/diff/route_closed_queue.py), whatever their phases; the same calls give
// the same times and a new CTA's ports start over.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "models/nvidia/sm_ports.h"

namespace {

using symsim::Ps;
using symsim::nv::SmPorts;
using symsim::nv::TmaEngineMva;

constexpr Ps kEnginePs = 235400;  // dispatch's round on the engine: 7168 B / 92.5 + 7184 B / 45.5 GB/s

// hw/diff/route_engine_forms.py's `mva` column: c1w1 540.6 ns at 2 / 4 / 8 warps: 643 / 973 / 1883.
TEST(TmaEngineMva, QueueSeenIsTheClosedQueuesMean) {
  const double e = 235.4, d = 540.6 - 235.4;
  const double expect[] = {643, 973, 1883};
  const uint32_t warps[] = {2, 4, 8};
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(e * (1 + TmaEngineMva::queue_seen(warps[i], d / e)) + d, expect[i], 1.0) << warps[i];
  EXPECT_DOUBLE_EQ(TmaEngineMva::queue_seen(1, 0.5), 0.0);
  EXPECT_NEAR(TmaEngineMva::queue_seen(5, 0.0), 4.0, 1e-12);  // saturated: every other thread queued
}

// tma.engine_mva_pass_linear (docs/hw-accuracy.md, fortieth pass (s34-phases)): the linear queue is
// each other thread's own share, (N - 1) / (1 + d), never under the engine's bound N - 1 - d; session 31's
// D1 (H100, heap) read mode 29's routing round `all` (one warp 943 ns, d 3.0) +61 / +110 / +136 ns at 2 / 3 / 4
// warps, the recursion +59 / +138 / +243, the linear queue +59 / +118 / +177.
TEST(TmaEngineMva, TheLinearQueueIsEachOtherThreadsShare) {
  const double e = 235.4, d = (943.0 - e) / e;
  const double recursion[] = {59, 138, 243}, linear[] = {59, 118, 177};
  for (uint32_t n = 2; n <= 4; ++n) {
    EXPECT_NEAR(e * TmaEngineMva::queue_seen(n, d), recursion[n - 2], 2.0) << n;
    EXPECT_NEAR(e * TmaEngineMva::linear_queue_seen(n, d), linear[n - 2], 2.0) << n;
  }
  EXPECT_DOUBLE_EQ(TmaEngineMva::linear_queue_seen(2, 0.5), TmaEngineMva::queue_seen(2, 0.5));  // two threads: the same
  EXPECT_DOUBLE_EQ(TmaEngineMva::linear_queue_seen(4, 0.5), 2.5);  // engine-bound: N - 1 - d
}

// tma.engine_mva_pair_fixed_pass (docs/hw-accuracy.md, forty-second pass (s36-tma)): with two threads the
// one pass ahead is the one in service, met halfway through on average; mode 12's two-warp 7184 B round (one
// warp's round 482.4 ns in the model, a pass E = 235.6 ns: the store's hold at 45.5 GB/s and the load's at
// 92.5) waits U(1) x E = 115 ns by the recursion, half that with the rule (the GPU's second warp +83 on the
// H200, +79 on the H100). With three or more threads the wait is the recursion's.
TEST(TmaEngineMva, TwoThreadsMeetAFixedPassHalfway) {
  const double e = 235.6, d = (482.4 - e) / e;
  const double u = TmaEngineMva::queue_seen(2, d);  // Q(1) = U(1) = 1 / (1 + d)
  EXPECT_NEAR(TmaEngineMva::wait_seen(2, u, u, e, e, false), 115.0, 2.0);
  EXPECT_NEAR(TmaEngineMva::wait_seen(2, u, u, e, e, true), 57.5, 1.0);
  EXPECT_DOUBLE_EQ(TmaEngineMva::wait_seen(1.5, 0.2, 0.2, e, e, true), 0.2 * e / 2);
  const double q3 = TmaEngineMva::queue_seen(3, d), u3 = 0.6;
  EXPECT_DOUBLE_EQ(TmaEngineMva::wait_seen(3, q3, u3, e, 1.1 * e, true), TmaEngineMva::wait_seen(3, q3, u3, e, 1.1 * e, false));
}

TEST(TmaEngineMva, OneThreadKeepsTheFifo) {
  SmPorts ports;
  Ps ready = 0;
  for (int i = 0; i < 10; ++i) {
    const Ps start = ports.tma_mva.book(ports.tma_engine, 0, ready, kEnginePs);
    EXPECT_EQ(start, ready);
    ready = start + kEnginePs + 100000;
  }
}

// N threads in step, each looping over D of its own work and a copy: from their second copy on
// each round is the closed queue's mean round (within 1% over 200 rounds), where the FIFO engine
// gives max(N x E, E + D).
Ps mean_round_ps(uint32_t n, Ps away_ps, SmPorts& ports) {
  std::vector<Ps> ready(n, 0), first_end(n, 0), last_end(n, 0);
  constexpr int kRounds = 200;
  for (int r = 0; r < kRounds; ++r)
    for (uint32_t w = 0; w < n; ++w) {
      const Ps start = ports.tma_mva.book(ports.tma_engine, 32 * w, ready[w], kEnginePs);
      last_end[w] = start + kEnginePs;
      if (r == 20) first_end[w] = last_end[w];
      ready[w] = last_end[w] + away_ps;
    }
  return (last_end[0] - first_end[0]) / (kRounds - 21);
}

TEST(TmaEngineMva, RoundsAreTheClosedQueuesMean) {
  for (uint32_t n : {2u, 4u, 8u}) {
    SmPorts ports;
    const Ps away_ps = 540600 - kEnginePs;
    const double d = static_cast<double>(away_ps) / static_cast<double>(kEnginePs);
    const double mva_ps = static_cast<double>(kEnginePs) * (1 + TmaEngineMva::queue_seen(n, d)) + static_cast<double>(away_ps);
    EXPECT_NEAR(static_cast<double>(mean_round_ps(n, away_ps, ports)) / mva_ps, 1.0, 0.01) << n;
  }
}

// A lane that issued a few copies beside four warps is a small part of a customer, not a fifth
// one (intranode dispatch's lanes made the population 13-14 and its kernel 2-3x slower).
TEST(TmaEngineMva, AFewCopiesOfAnotherLaneAreNotACustomer) {
  SmPorts ports;
  for (uint32_t lane = 1; lane <= 8; ++lane) ports.tma_mva.book(ports.tma_engine, lane, 0, kEnginePs);
  const Ps away_ps = 540600 - kEnginePs;
  const double d = static_cast<double>(away_ps) / static_cast<double>(kEnginePs);
  const double four_ps = static_cast<double>(kEnginePs) * (1 + TmaEngineMva::queue_seen(4, d)) + static_cast<double>(away_ps);
  EXPECT_NEAR(static_cast<double>(mean_round_ps(4, away_ps, ports)) / four_ps, 1.0, 0.05);
}

TEST(TmaEngineMva, SameCallsSameTimesAndNewPortsStartOver) {
  SmPorts a, b;
  EXPECT_EQ(mean_round_ps(4, 300000, a), mean_round_ps(4, 300000, b));
  SmPorts c;
  const Ps first = c.tma_mva.book(c.tma_engine, 0, 0, kEnginePs);
  c = SmPorts{};
  EXPECT_EQ(c.tma_mva.book(c.tma_engine, 0, 0, kEnginePs), first);
}

// tma.engine_mva_segments (s28-phases): after a CTA-wide barrier the engine queues with the new
// stretch's own time away. Threads that looped with a long time away (dispatch's send loop), then
// a short one (its receive loop): with the sums started over the short loop's rounds are its own
// closed queue's mean; with launch-long sums its rounds come out shorter (the send loop's ratio).
Ps rounds_after(SmPorts& ports, bool new_segment) {
  const uint32_t n = 4;
  std::vector<Ps> ready(n, 0);
  for (int r = 0; r < 100; ++r)
    for (uint32_t w = 0; w < n; ++w)
      ready[w] = ports.tma_mva.book(ports.tma_engine, 32 * w, ready[w], kEnginePs) + kEnginePs + 1200000;
  if (new_segment) ports.tma_mva.new_segment();
  Ps from = 0;
  for (Ps t : ready) from = std::max(from, t);
  SmPorts fresh;  // where a new CTA's engine puts the same short loop, shifted to `from`
  std::vector<Ps> a(n, from), b(n, from), first_a(n), first_b(n), end_a(n), end_b(n);
  constexpr int kRounds = 200;
  constexpr Ps kAwayPs = 40000;
  for (int r = 0; r < kRounds; ++r)
    for (uint32_t w = 0; w < n; ++w) {
      end_a[w] = ports.tma_mva.book(ports.tma_engine, 32 * w, a[w], kEnginePs) + kEnginePs;
      end_b[w] = fresh.tma_mva.book(fresh.tma_engine, 32 * w, b[w], kEnginePs) + kEnginePs;
      a[w] = end_a[w] + kAwayPs, b[w] = end_b[w] + kAwayPs;
      if (r == 0) first_a[w] = end_a[w], first_b[w] = end_b[w];
    }
  if (new_segment) {  // started over: the same times as a new CTA's, from the first copy on (FIFO) to the last
    for (uint32_t w = 0; w < n; ++w) EXPECT_EQ(end_a[w], end_b[w]) << w;
    EXPECT_EQ(first_a, first_b);
  }
  return (end_a[0] - first_a[0]) / (kRounds - 1);
}

TEST(TmaEngineMva, ANewSegmentQueuesWithItsOwnTimeAway) {
  SmPorts with, without;
  const Ps segment_ps = rounds_after(with, true), launch_ps = rounds_after(without, false);
  const double d = 40000.0 / static_cast<double>(kEnginePs);
  const double mva_ps = static_cast<double>(kEnginePs) * (1 + TmaEngineMva::queue_seen(4, d)) + 40000.0;
  EXPECT_NEAR(static_cast<double>(segment_ps) / mva_ps, 1.0, 0.01);  // 4 x E nearly: the engine saturated
  EXPECT_LT(static_cast<double>(launch_ps), 0.85 * static_cast<double>(segment_ps));  // the send loop's ratio kept
}

}  // namespace
