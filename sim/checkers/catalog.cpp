#include "sim/checkers/catalog.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "sim/catalog/checker_registry.h"
#include "sim/catalog/fault_kind.h"

namespace symsim {

namespace {

// "ascend" + "nvidia" -> "ascend, nvidia" (kAll already names both).
std::string with_family(const std::string& families, const char* family) {
  if (families.empty()) return family;
  if (families.find(family) != std::string::npos) return families;
  if (std::strcmp(family, family::kAll) == 0) return family::kAll;
  return families < family ? families + ", " + family : std::string(family) + ", " + families;
}

std::vector<CatalogEntry> hazards_from_registrations() {
  std::map<std::string, CatalogEntry> by_id;
  for (const catalog::CheckerInfo& c : catalog::checkers()) {
    for (const HazardId& id : c.ids) {
      auto [it, fresh] = by_id.try_emplace(id.name, CatalogEntry{id.name, id.doc, ""});
      it->second.families = with_family(it->second.families, c.family);
    }
  }
  std::vector<CatalogEntry> out;
  for (auto& [name, e] : by_id) out.push_back(std::move(e));
  return out;
}

bool in(const std::vector<CatalogEntry>& c, const std::string& id) {
  return std::any_of(c.begin(), c.end(), [&](const CatalogEntry& e) { return id == e.id; });
}

}  // namespace

const std::vector<CatalogEntry>& hazard_catalog() {
  static const std::vector<CatalogEntry> c = hazards_from_registrations();
  return c;
}

const std::vector<CatalogEntry>& fault_catalog() {
  static const std::vector<CatalogEntry> c = [] {
    std::vector<CatalogEntry> out;
    for (const FaultKind& k : catalog::faults()) out.push_back({k.name, k.doc, k.family});
    return out;
  }();
  return c;
}

bool is_hazard_id(const std::string& id) { return in(hazard_catalog(), id); }
bool is_fault_kind(const std::string& kind) { return in(fault_catalog(), kind); }
bool fault_implemented(const std::string& kind) { return is_fault_kind(kind); }

}  // namespace symsim
