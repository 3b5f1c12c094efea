#include "sim/checkers/nvidia/nvidia_checker.h"

#include "models/nvidia/nvidia_system.h"

namespace symsim {

namespace {
using NvidiaCheckers = catalog::Registry<catalog::CheckerFactory<NvidiaCheckerContext, NvidiaChecker>>;
}  // namespace

Hazard NvidiaChecker::at_qp(const HazardId& id, const nv::NicQpView& q, int64_t wqe, uint64_t addr, Ps t,
                            std::string detail) const {
  Hazard h;
  h.id = id.name;
  h.pe = q.ref.pe;
  h.slot = q.ref.slot;
  h.qp = q.ref.qp;
  h.wqe = wqe;
  h.addr = addr ? nv::addr_text(addr) : "";
  h.time_ps = t;
  h.detail = std::move(detail);
  return h;
}

NvidiaCheckerSet::NvidiaCheckerSet(HazardLog& log) : m_ctx{log} {
  // Every registered NVIDIA checker one of whose hazard ids is enabled, in rank order.
  for (const auto& r : NvidiaCheckers::instance().all()) {
    bool any = false;
    for (const HazardId& id : r.info.ids) any = any || log.enabled(id.name);
    if (any) m_checkers.push_back(r.make(m_ctx));
  }
}

void NvidiaCheckerSet::attach(Hooks& hooks) {
  for (auto& c : m_checkers) hooks.attach(c.get());
}

}  // namespace symsim
