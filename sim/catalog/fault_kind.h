// A fault kind the injector implements: one constexpr object per kind (its id, family and what
// it does), used by the injector's code and by its registration, so the catalog `symsim list
// faults` prints and the scenario checker accepts is the set the injector implements.
#pragma once
#include <string>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/catalog/registry.h"

namespace symsim {

struct FaultKind {
  const char* name;  // "torn_block"
  const char* family;
  // The keys a fault of this kind may have besides "kind", space-separated: "@qp" stands for
  // the QP selectors (pe, peer, qp, window_us), "@wqe" for the WQE selectors (those, plus
  // heap_range, probability, count).
  const char* keys;
  const char* doc;
  std::string key() const { return name; }
};
inline bool operator==(const std::string& s, const FaultKind& k) { return s == k.name; }
inline bool operator!=(const std::string& s, const FaultKind& k) { return s != k.name; }

namespace catalog {
inline bool register_fault(const FaultKind& k) { return Registry<FaultKind>::instance().add(k); }
inline const std::vector<FaultKind>& faults() { return Registry<FaultKind>::instance().all(); }
}  // namespace catalog

}  // namespace symsim

#define SYMSIM_REGISTER_FAULT(kind) \
  static const bool SYMSIM_CATALOG_UNIQUE(symsim_fault_registered_) = ::symsim::catalog::register_fault(kind)
