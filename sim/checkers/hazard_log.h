// Reported hazards, in the order found; written to result.json, the summary and the trace.
// One rule per hazard id, each switchable by name (CheckerConfig). A hazard that repeats at
// the same place (id, PE, core, QP, call site) is counted on its first report, and a second
// hazard on the same WQE is a consequence of the first and is folded into it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/checkers/checker_config.h"
#include "models/core/time.h"

namespace symsim {

struct Hazard {
  std::string id;
  int pe = -1;
  int core = -1;     // AIV core (-1: not core-related)
  int qp = -1;       // QP index within its slot (-1: not QP-related)
  int slot = -1;     // peer slot of the QP
  int64_t wqe = -1;  // WQEBB index of the WQE
  std::string addr;  // deterministic: "pe1.heap+0x200"
  Ps time_ps = 0;
  std::string site;  // the kernel's call: "kernels/hazards/x.cpp:42"
  std::string detail;
  uint64_t repeats = 0;  // further occurrences at the same place
  // false: the ordering rules allow the bad outcome, but this run's timing did not show it.
  bool observed = true;
};

class HazardLog {
 public:
  explicit HazardLog(CheckerConfig config = CheckerConfig::all_enabled()) : m_config(std::move(config)) {}
  bool enabled(const std::string& id) const { return m_config.enabled(id); }
  const CheckerConfig& config() const { return m_config; }
  void report(Hazard h);
  const std::vector<Hazard>& all() const { return m_hazards; }

 private:
  using PlaceKey = std::tuple<std::string, int, int, int, int, std::string>;
  using WqeKey = std::tuple<int, int, int, int64_t>;
  CheckerConfig m_config;
  std::vector<Hazard> m_hazards;
  std::map<PlaceKey, size_t> m_by_place;
  std::map<WqeKey, size_t> m_by_wqe;
};

}  // namespace symsim
