// The one narrow interface through which models consult injected faults (sim/faults/
// implements it from the scenario's "faults"). Every method has a no-fault default, so a model
// asks only where a fault can change what it does: a doorbell, a CQ's capacity, a WQE's fate,
// a visibility unit's delivery, a link's state, a core's speed. Implementations are
// deterministic under the scenario seed (one RNG per fault).
#pragma once
#include <cstdint>
#include <limits>

#include "models/core/time.h"

namespace symsim {

struct QpRef;

constexpr Ps kForeverPs = std::numeric_limits<Ps>::max();

// What happens to a doorbell store on its way to the engine.
struct DoorbellFault {
  bool drop = false;
  Ps delay_ps = 0;
};

// What happens to one WQE the engine executes.
struct WqeFault {
  uint8_t status = 0;       // non-zero: complete with this error status instead of executing
  uint8_t substatus = 0;
  Ps delay_ps = 0;          // its data lands this much later (later WQEs may overtake it)
  uint32_t flip_bits = 0;   // bits flipped in its payload on the wire
};

// The state of one link direction at a time.
struct LinkFault {
  double bandwidth_factor = 1.0;  // 0 < f <= 1
  Ps extra_latency_ps = 0;
  Ps down_until_ps = 0;  // > t: down until then (kForeverPs: never back up)
};

// A visibility unit delivered in two parts: [late_offset, late_offset+late_bytes) lands
// `late_delay_ps` after the rest.
struct TornUnit {
  uint32_t late_offset = 0;
  uint32_t late_bytes = 0;
  Ps late_delay_ps = 0;
};

class FaultHooks {
 public:
  virtual ~FaultHooks() = default;
  virtual DoorbellFault doorbell(const QpRef&, bool cq, uint32_t value, Ps t) { return {}; }
  // How many unconsumed CQEs the engine lets the CQ hold (a shrunk CQ holds fewer).
  virtual uint32_t cq_capacity(const QpRef&, uint32_t depth, Ps t) { return depth; }
  virtual WqeFault wqe(const QpRef&, uint32_t wqe_index, uint8_t opcode, int target_pe, uint64_t remote_va,
                       uint32_t bytes, Ps t) {
    return {};
  }
  // Whether the unit of `bytes` landing at `dst` at `t` is torn; fills `out` when it is.
  virtual bool tear(const QpRef&, uint32_t wqe_index, int target_pe, const uint8_t* dst, uint32_t bytes, Ps t,
                    TornUnit* out) {
    return false;
  }
  // Flips `bits` bits of `data` (a staged payload copy), drawing positions from the fault's RNG.
  virtual void corrupt(const QpRef&, uint32_t wqe_index, uint8_t* data, uint64_t len, uint32_t bits) {}
  virtual LinkFault link(int link_id, Ps t) { return {}; }
  // Factor (>= 1) by which the core's work takes longer at `t`.
  virtual double core_slowdown(int pe, int core, Ps t) { return 1.0; }
};

inline FaultHooks& no_faults() {
  static FaultHooks none;
  return none;
}

}  // namespace symsim
