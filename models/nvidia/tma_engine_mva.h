// The SM's TMA engine as a mean-value closed queue once two threads of its CTA share it
// (tma.engine_mva; docs/hw-accuracy.md, thirty-second pass (s26-mva)).
//
// On the GPU the warps of one SM issuing bulk copies behave as a closed queue on its engine
// (s25-route: 15 of 15 one-SM rows within 10% of its mean-value analysis). The model's warps
// start in step; a FIFO engine with fixed copy times keeps them staggered (round max(N x E, one
// warp)) and exact sharing keeps them in step (N x E + D): neither is the closed queue's mean,
// which needs the copies' phases to vary, and varied copy times make the rows move with the
// variation's phase (s26-route). Here a shared copy waits the closed queue's mean wait instead of
// queueing: E x Q(N-1), Q from the exact MVA recursion over n = 1..N on the SM's counts (N the
// threads that used the engine as their participation ratio by engine time, linear between
// whole populations; D / E the ratio of their summed time away from the engine
// between copies to their summed engine time). So every warp's round comes out at the closed queue's
// mean whatever the warps' phases; no queue state, no random stream, nothing to fit. The wait is
// paid once a pass, Q(N-1) mean passes with the one in service length-biased (s31-wait, book()).
// A thread's first copy queues on the FIFO engine (warps do start together); one issuing thread
// alone keeps the FIFO engine for every copy. State per SM (reset with its ports for each CTA).
// With tma.engine_mva_segments a CTA-wide barrier starts the state over (new_segment): each
// stretch of the kernel between two __syncthreads (dispatch's send loop, its receive loop) is
// its own closed queue, with its own time away per engine time and its own population, as at
// the CTA's start (docs/hw-accuracy.md, thirty-fourth pass (s28-phases)).
#pragma once
#include <cstdint>
#include <vector>

#include "models/core/time.h"

namespace symsim::nv {

class SmUnit;

class TmaEngineMva {
 public:
  // The start on the engine of a copy of engine time `engine_ps` that thread `tid` of the SM's
  // CTA is ready to issue at `ready_ps` (its wait included); `fifo` is the SM's FIFO engine.
  // `pass_linear`: tma.engine_mva_pass_linear (below, linear_queue_seen); `pair_fixed`:
  // tma.engine_mva_pair_fixed_pass (below, wait_seen).
  Ps book(SmUnit& fifo, uint32_t tid, Ps ready_ps, Ps engine_ps, bool pass_linear = false, bool pair_fixed = false);
  // The CTA's threads all passed a barrier: forget the sums, the population and each thread's
  // copies, so the next stretch's first copies queue on the FIFO engine as at the CTA's start.
  void new_segment();

  // The closed queue's mean number at the engine seen by an arriving copy, Q(n - 1), for n
  // threads whose time away from the engine is `away_per_engine` times their time on it.
  static double queue_seen(uint32_t n, double away_per_engine);
  // The same for a population between two whole ones (linear between them).
  static double queue_seen_at(double n, double away_per_engine);
  // tma.engine_mva_pass_linear (docs/hw-accuracy.md, fortieth pass (s34-phases)): for a thread whose
  // rounds are one pass each (its load issued behind its own store) and whose time away is at least
  // the other n - 1 threads' engine time, the queue it meets is each other thread's own share of the
  // engine, (n - 1) / (1 + d), not the exact recursion's, whose queue-behind-queue growth such warps
  // do not show on the GPU (they fall into turns: mode 29's routing round and mode 22's send loop at
  // four warps, 1.07-1.14 x the GPU's in the heap with the recursion); never under the engine's bound
  // n - 1 - d (the round n x E).
  static double linear_queue_seen(double n, double away_per_engine);
  // The wait of an arriving pass that sees `queue` passes ahead, one of them in service with probability
  // `busy`, the passes `mean_ps` long on average and `biased_ps` in the length-biased mean (sum v^2 / sum v).
  // The exponential recursion's: queue x mean, the one in service its whole biased length. With
  // `pair_fixed` (tma.engine_mva_pair_fixed_pass) and n <= 2 the one pass ahead is the one in service and
  // a pass has a fixed length, so the arrival meets it halfway on average: busy x biased / 2 (the GPU's
  // second warp on one SM adds 0.34-0.68 x the recursion's wait, c1w2 - c1w1 of modes 12 (up to 7184 B)
  // and 29 on both cards; docs/hw-accuracy.md, forty-second pass (s36-tma)). With more threads the queue behind the one in
  // service is the recursion's, which four warps' copy rounds need whole (s32-mode11).
  static double wait_seen(double n, double queue, double busy, double mean_ps, double biased_ps, bool pair_fixed);

 private:
  struct Thread {
    bool seen = false;
    Ps end_ps = 0;  // when its last copy leaves the engine
    double engine_ps = 0;  // its copies' engine time
    double visit_ps = 0;   // engine time of its current pass (copies issued behind its own)
    int pass_copies = 0;   // copies in its current pass ...
    int last_pass_copies = 0;  // ... and in its previous one (tma.engine_mva_pass_linear)
  };
  // Passes (s31-wait): a pass is a thread's copies each issued before its previous one left the
  // engine; the wait is paid once a pass (a warp's load issued right behind its own store meets the
  // queue once, one issued after its store has passed meets it again).
  double m_visit_ps = 0;       // summed engine time of every pass ...
  double m_visit_sq_ps2 = 0;  // ... and the sum of each pass's squared
  double m_passes = 0;        // passes counted
  std::vector<Thread> m_threads;
  uint32_t m_count = 0;       // threads that used the engine
  double m_away_ps = 0;       // summed time away from the engine between a thread's copies
  double m_engine_ps = 0;     // summed engine time of those copies
  double m_all_engine_ps = 0;  // every copy's engine time ...
  double m_engine_sq_ps2 = 0;  // ... and the sum of each thread's total squared
};

}  // namespace symsim::nv
