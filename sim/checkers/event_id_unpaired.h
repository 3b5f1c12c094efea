#pragma once
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/per_core.h"

namespace symsim {

inline constexpr HazardId kEventIdUnpaired{"event_id_unpaired", "a SetFlag never waited, a WaitFlag never set, or an event id reused while pending"};

// event_id_unpaired: a SetFlag never waited, a WaitFlag with nothing set, an id reused.
class EventIdUnpairedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_pipe_sync(const PipeSyncRecord& s) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;

 private:
  PerCore<std::vector<PipeSyncRecord>> m_pending;  // SetFlags not yet waited
};

}  // namespace symsim
