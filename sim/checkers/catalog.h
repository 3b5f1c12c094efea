// The stable hazard ids and fault kinds of the product contract, one line each
// (`symsim list hazards|faults` prints these).
#pragma once
#include <string>
#include <vector>

namespace symsim {

struct CatalogEntry {
  const char* id;
  const char* doc;
};

const std::vector<CatalogEntry>& hazard_catalog();
const std::vector<CatalogEntry>& fault_catalog();
bool is_hazard_id(const std::string& id);
bool is_fault_kind(const std::string& kind);
// Fault kinds the simulator can inject today.
bool fault_implemented(const std::string& kind);

}  // namespace symsim
