// Reported hazards, in the order found; written to result.json, the summary and the trace.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/time.h"

namespace symsim {

struct Hazard {
  std::string id;
  int pe = -1;
  int qp = -1;       // QP index within its slot (-1: not QP-related)
  int slot = -1;     // peer slot of the QP
  int64_t wqe = -1;  // WQEBB index of the WQE
  uint64_t addr = 0;
  Ps time_ps = 0;
  std::string detail;
};

class HazardLog {
 public:
  void report(Hazard h) { m_hazards.push_back(std::move(h)); }
  const std::vector<Hazard>& all() const { return m_hazards; }

 private:
  std::vector<Hazard> m_hazards;
};

}  // namespace symsim
