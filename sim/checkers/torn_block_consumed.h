#pragma once
#include <set>
#include <vector>
#include <utility>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kTornBlockConsumed{"torn_block_consumed", "a receiver consumed a 512 B block that was only partly visible"};

// torn_block_consumed: a reader consumed a unit whose parts had not all landed.
class TornBlockConsumedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_fault(const FaultEvent& f) override;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) override;

 private:
  struct Torn {
    FaultEvent f;
    std::set<std::pair<int, int>> saw_early;  // (pe, core) that read the landed part
    bool reported = false;
  };
  void read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site);
  // Out of line: the report's Hazard and strings would otherwise widen read()'s stack frame, whose
  // lines every copy touches on a coroutine stack gone cold (docs/performance.md, s28-ep).
  [[gnu::cold, gnu::noinline]] void report(const Torn& u, int pe, int core, Ps t, SiteRef site);
  std::vector<Torn> m_torn;
};

}  // namespace symsim
