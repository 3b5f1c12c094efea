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
  // The hub calls these with the event's pending SetFlag (null: none; pending_flags.h). Inline
  // tests, the reports out of line: a MoE WQE makes ~9 SetFlag/WaitFlag pairs, nearly all clean.
  void on_set_flag(const PipeSyncRecord& s, const PendingFlag* pending) {
    if (pending) report_reused(s, *pending);
  }
  void on_wait_flag(const PipeSyncRecord& s) {
    if (!s.matched) report_unset(s);
  }
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;

 private:
  [[gnu::cold, gnu::noinline]] void report_reused(const PipeSyncRecord& s, const PendingFlag& pending);
  [[gnu::cold, gnu::noinline]] void report_unset(const PipeSyncRecord& s);
  void report(const PipeSyncRecord& s, std::string detail);
};

}  // namespace symsim
