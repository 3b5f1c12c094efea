#include "sim/checkers/hazard_log.h"

namespace symsim {

void HazardLog::report(Hazard h) {
  if (!enabled(h.id)) return;
  if (h.wqe >= 0 && h.qp >= 0) {
    const WqeKey wk{h.pe, h.slot, h.qp, h.wqe};
    const auto it = m_by_wqe.find(wk);
    if (it != m_by_wqe.end()) {
      Hazard& root = m_hazards[it->second];
      if (root.id == h.id) {
        ++root.repeats;
        if (h.observed && !root.observed) root.observed = true, root.detail = std::move(h.detail);
      } else if (root.detail.find("; then " + h.id) == std::string::npos) {
        root.detail += "; then " + h.id + ": " + h.detail;  // a consequence of the first
      }
      return;
    }
  }
  const PlaceKey pk{h.id, h.pe, h.core, h.slot, h.qp, h.site};
  const auto it = m_by_place.find(pk);
  if (it != m_by_place.end()) {
    Hazard& root = m_hazards[it->second];
    ++root.repeats;
    if (h.observed && !root.observed) root.observed = true, root.detail = std::move(h.detail);
    return;
  }
  m_by_place[pk] = m_hazards.size();
  if (h.wqe >= 0 && h.qp >= 0) m_by_wqe[{h.pe, h.slot, h.qp, h.wqe}] = m_hazards.size();
  m_hazards.push_back(std::move(h));
}

}  // namespace symsim
