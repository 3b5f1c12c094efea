// One enable flag per hazard rule, by hazard id (all on by default), as a scenario's
// "checkers": {"qp_multi_producer": false} sets them.
#pragma once
#include <map>
#include <string>

namespace symsim {

class CheckerConfig {
 public:
  static CheckerConfig all_enabled() { return {}; }
  void set(const std::string& id, bool on) { m_flags[id] = on; }
  bool enabled(const std::string& id) const {
    const auto it = m_flags.find(id);
    return it == m_flags.end() || it->second;
  }
  const std::map<std::string, bool>& flags() const { return m_flags; }

 private:
  std::map<std::string, bool> m_flags;  // only the ones the scenario named
};

}  // namespace symsim
