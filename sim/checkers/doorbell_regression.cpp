// doorbell_regression: the producer index a doorbell carries must only grow (it is the
// unmasked 32-bit head); the engine ignores a doorbell that moves it back.
#include <fmt/format.h>

#include "sim/checkers/doorbell_regression.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(DoorbellRegressionChecker, "doorbell_regression", 20, "a doorbell moved the producer index backwards", kDoorbellRegression);

void DoorbellRegressionChecker::on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index,
                                                       Ps t) {
  Hazard h;
  h.id = kDoorbellRegression.name;
  h.pe = q.pe;
  h.slot = q.slot;
  h.qp = q.qp;
  h.core = m_ctx.sites.doorbell_core(q, new_index);
  h.wqe = new_index;
  h.time_ps = t;
  h.site = site_text(m_ctx.sites.doorbell_site(q, new_index));
  h.detail = fmt::format(
      "SQ doorbell moved the producer index back from {} to {}: the engine ignores it, so WQEs posted since are "
      "never executed (ring the unmasked, monotonic head, not head % depth)",
      old_index, new_index);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
