// The union of the hazards of explored schedules: one entry per place (id, PE, slot, QP, WQE,
// core, call site; not the address, which varies with timing), with how many schedules
// reported it, the first that did, and the first that showed it observed (the one to
// reproduce).
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace symsim::explore {

struct UnionEntry {
  nlohmann::json first;  // the hazard as the first schedule reporting it wrote it
  uint64_t schedules = 0;
  uint64_t first_seed = 0;
  bool observed = false;
  uint64_t observed_seed = 0;
  nlohmann::json observed_hazard;  // as the first schedule that observed it wrote it
};

class HazardUnion {
 public:
  // Adds the hazards of one schedule's result.json.
  void add(uint64_t seed, const nlohmann::json& result);
  // Entries in the order first found (schedules are added in seed order).
  std::vector<const UnionEntry*> entries() const;

 private:
  using Key = std::tuple<std::string, int, int, int, int64_t, int, std::string>;
  std::map<Key, size_t> m_index;
  std::vector<UnionEntry> m_entries;
};

}  // namespace symsim::explore
