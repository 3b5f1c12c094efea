// The hazard ids and fault kinds of the product contract, read from the registrations beside
// their code (catalog/checker_registry.h, catalog/fault_kind.h): `symsim list hazards|faults`
// prints these, and a scenario may name only these.
#pragma once
#include <string>
#include <vector>

namespace symsim {

struct CatalogEntry {
  const char* id;
  const char* doc;
  std::string families;  // "ascend", "nvidia" or "ascend, nvidia"
};

// By id; a hazard id reported by several checkers appears once, with every family that has one.
const std::vector<CatalogEntry>& hazard_catalog();
const std::vector<CatalogEntry>& fault_catalog();
bool is_hazard_id(const std::string& id);
bool is_fault_kind(const std::string& kind);
// Fault kinds the simulator can inject today (every registered kind: a kind registers beside
// the code that injects it).
bool fault_implemented(const std::string& kind);

}  // namespace symsim
