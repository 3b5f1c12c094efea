#pragma once
#include <set>
#include <tuple>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kTokenMismatch{"token_mismatch", "a WQE's token did not match the target memory's token"};
inline constexpr HazardId kBadRemoteAddr{"bad_remote_addr", "a WQE's remote address is outside the target's registered memory"};
inline constexpr HazardId kRelayUnreachable{"relay_unreachable", "a WQE names a target the fabric cannot reach"};

// token_mismatch, bad_remote_addr, relay_unreachable: the engine's own checks failed.
class CompletionErrorChecker : public Checker {
 public:
  using Checker::Checker;
  void on_fault(const FaultEvent& f) override;
  void on_executed(const WqeRecord& r);

 private:
  uint32_t token_of(const WqeRecord& r) const;
  std::set<std::tuple<int, int, int, uint32_t>> m_injected;  // error CQEs a fault made
};

}  // namespace symsim
