// The scenario's faults, as the interceptor the models consult (models/core/fault_hooks.h).
// Each fault has its own RNG seeded from the scenario seed and its position, and draws only
// when its selectors match, so a run is deterministic under its seed. What a fault does is
// also reported through the hooks (on_fault), for the trace, the checkers and hang reports.
#pragma once
#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "sim/faults/fault_spec.h"
#include "models/core/fault_hooks.h"
#include "models/core/observer.h"

namespace symsim {

class AscendSystem;

// CQE status / substatus a fault produces where it replaces the engine's (assumed values:
// the public sources define only 0 = success).
namespace fault_cqe {
constexpr uint8_t kTransportStatus = 0x04;       // the path failed
constexpr uint8_t kRetryExceededSubstatus = 0x01;
}  // namespace fault_cqe

class FaultInjector : public FaultHooks {
 public:
  FaultInjector(std::vector<FaultSpec> specs, uint64_t seed, AscendSystem& sys, Hooks& hooks);

  DoorbellFault doorbell(const QpRef& q, bool cq, uint32_t value, Ps t) override;
  uint32_t cq_capacity(const QpRef& q, uint32_t depth, Ps t) override;
  WqeFault wqe(const QpRef& q, uint32_t wqe_index, uint8_t opcode, int target_pe, uint64_t remote_va, uint32_t bytes,
               Ps t) override;
  bool tear(const QpRef& q, uint32_t wqe_index, int target_pe, const uint8_t* dst, uint32_t bytes, Ps t,
            TornUnit* out) override;
  void corrupt(const QpRef& q, uint32_t wqe_index, uint8_t* data, uint64_t len, uint32_t bits) override;
  LinkFault link(int link_id, Ps t) override;
  double core_slowdown(int pe, int core, Ps t) override;

 private:
  struct Rule {
    FaultSpec spec;
    std::mt19937_64 rng;
    uint64_t fired = 0;
    std::vector<int> link_ids;
    std::set<std::tuple<int, int, int>> announced;  // QPs told of a shrunk CQ
    bool link_announced = false;
  };
  bool in(const std::vector<int>& v, int x) const { return v.empty() || std::find(v.begin(), v.end(), x) != v.end(); }
  bool selects(const Rule& r, const QpRef& q, int target_pe, Ps t) const;
  bool in_heap_range(const Rule& r, int target_pe, uint64_t va, uint64_t len) const;
  // Draws against the probability and counts the firing; false once `count` is spent.
  bool fire(Rule& r);
  void emit(FaultEvent e);

  AscendSystem& m_sys;
  Hooks& m_hooks;
  std::vector<Rule> m_rules;
  Rule* m_flip = nullptr;  // the rule whose bit flips the engine asks for next
};

}  // namespace symsim
