// A statistic of result.json's "stats": where it is, its unit and what it counts. One
// constexpr object per statistic, used as the JSON key where it is written and registered
// beside that code, so `symsim list stats` names what result.json holds.
#pragma once
#include <string>
#include <vector>

#include "sim/catalog/registry.h"

namespace symsim {

struct Statistic {
  const char* name;    // the JSON key: "busy_ns"
  const char* where;   // the objects that hold it: "pes[].engine, links[]"
  const char* unit;    // "count", "B", "ns", "fraction"
  const char* family;
  const char* doc;
  std::string key() const { return std::string(where) + "." + name; }
};

namespace catalog {
inline bool register_statistic(const Statistic& s) { return Registry<Statistic>::instance().add(s); }
inline const std::vector<Statistic>& statistics() { return Registry<Statistic>::instance().all(); }
}  // namespace catalog

}  // namespace symsim

#define SYMSIM_REGISTER_STATISTIC(stat) \
  static const bool SYMSIM_CATALOG_UNIQUE(symsim_statistic_registered_) = ::symsim::catalog::register_statistic(stat)
