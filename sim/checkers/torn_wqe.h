#pragma once
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kTornWqe{"torn_wqe", "the engine fetched a WQE that was not yet fully visible"};

// torn_wqe: the engine fetched a WQE whose bytes an MTE3 copy had not yet landed.
class TornWqeChecker : public Checker {
 public:
  using Checker::Checker;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_fetched(const QpRef& q, uint32_t wqe, const uint8_t* slot, uint32_t bytes, Ps t);
  // Copies into `pe`'s rings may still be in flight (else a fetch there has nothing to judge).
  bool copies_pending(int pe) const {
    return pe >= 0 && static_cast<size_t>(pe) < m_pending.size() && !m_pending[static_cast<size_t>(pe)].empty();
  }

 private:
  std::vector<std::vector<CopyRecord>> m_pending;  // by ring PE: copies into its rings not yet landed
};

}  // namespace symsim
