// The shared units of one SM that its threads queue on (one CTA runs per SM): the TMA engine
// (every bulk copy occupies it for its engine cost or its bytes at the load cap, whichever is
// longer), the write path (stores and bulk stores alike, 32 B per SM clock on an H200) and the
// atomic issue port.
#pragma once
#include <cstdint>
#include <map>

#include "models/core/time.h"

namespace symsim::nv {

// A unit's time as a calendar of 16 ns slots, each with 16 ns to give: a request takes time
// from the first slot with some left at or after the one it is ready in. The CTA's threads run up to a quantum apart in
// local time and reach the unit out of time order; a busy-until time would make an early
// request queue behind a later one, a calendar does not.
class SmUnit {
 public:
  static constexpr Ps kSlotPs = 16000;  // 16 ns
  // Occupies the unit for `duration` from no earlier than `ready`; returns the start.
  Ps reserve(Ps ready, Ps duration);

 private:
  std::map<int64_t, Ps> m_used;  // slot -> time spent in it
};

struct SmPorts {
  SmUnit tma_engine;
  SmUnit write_path;
  SmUnit atomic_issue;
};

}  // namespace symsim::nv
