// Hazards a model found itself go to the log unchanged.
#include <fmt/format.h>

#include "checkers/checkers.h"

namespace symsim {

void ModelHazardForwarder::on_model_hazard(const ModelHazard& m) {
  Hazard h;
  h.id = m.id;
  h.pe = m.pe;
  h.qp = m.qp;
  h.slot = m.slot;
  h.wqe = m.wqe;
  h.addr = m.addr ? fmt::format("{:#x}", m.addr) : "";
  h.time_ps = m.time_ps;
  h.detail = m.detail;
  h.observed = m.observed;
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
