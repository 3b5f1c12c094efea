#include "sim/explore/hazard_union.h"

namespace symsim::explore {

using nlohmann::json;

void HazardUnion::add(uint64_t seed, const json& result) {
  if (!result.is_object() || !result.contains("hazards")) return;
  for (const json& h : result["hazards"]) {
    // Not the address: the word a stale read hits varies from one schedule to the next.
    const Key k{h.value("id", std::string()), h.value("pe", -1),         h.value("slot", -1),
                h.value("qp", -1),            h.value("wqe", int64_t{-1}), h.value("core", -1),
                h.value("site", std::string())};
    auto it = m_index.find(k);
    if (it == m_index.end()) {
      it = m_index.emplace(k, m_entries.size()).first;
      UnionEntry e;
      e.first = h;
      e.first_seed = seed;
      m_entries.push_back(std::move(e));
    }
    UnionEntry& e = m_entries[it->second];
    ++e.schedules;
    if (!e.observed && h.value("observed", true)) {
      e.observed = true;
      e.observed_seed = seed;
      e.observed_hazard = h;
    }
  }
}

std::vector<const UnionEntry*> HazardUnion::entries() const {
  std::vector<const UnionEntry*> out;
  for (const UnionEntry& e : m_entries) out.push_back(&e);
  return out;
}

}  // namespace symsim::explore
