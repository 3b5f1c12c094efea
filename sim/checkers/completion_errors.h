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
  void on_fetched(const QpRef& q, uint32_t wqe, const uint8_t* slot, uint32_t bytes) {
    m_fetched.qp = q;  // field by field: an aggregate went through a copy on the stack
    m_fetched.wqe = wqe;
    m_fetched.slot = slot;
    m_fetched.bytes = bytes;
  }
  void on_fault(const FaultEvent& f) override;
  void on_executed(const WqeRecord& r);

 private:
  // The WQE the engine fetched last: it executes it at once (same call), so its slot still
  // holds the bytes and only an error needs them decoded.
  struct Fetched {
    QpRef qp{-1, -1, -1};
    uint32_t wqe = 0;
    const uint8_t* slot = nullptr;
    uint32_t bytes = 0;
  };
  Fetched m_fetched;
  std::set<std::tuple<int, int, int, uint32_t>> m_injected;  // error CQEs a fault made
};

}  // namespace symsim
