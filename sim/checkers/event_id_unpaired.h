#pragma once
#include <string>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/pending_flags.h"

namespace symsim {

inline constexpr HazardId kEventIdUnpaired{"event_id_unpaired", "a SetFlag never waited, a WaitFlag never set, or an event id reused while pending"};

// event_id_unpaired: a SetFlag never waited, a WaitFlag with nothing set, an id reused.
class EventIdUnpairedChecker : public Checker {
 public:
  using Checker::Checker;
  // The hub calls these with the event's pending SetFlag (null: none; pending_flags.h).
  void on_set_flag(const PipeSyncRecord& s, const PendingFlag* pending);
  void on_wait_flag(const PipeSyncRecord& s);
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;

 private:
  void report(const PipeSyncRecord& s, std::string detail);
};

}  // namespace symsim
