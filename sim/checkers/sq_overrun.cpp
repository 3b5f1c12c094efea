// sq_overrun: the engine learns of an overrun when a doorbell publishes a producer index more
// than a ring ahead of what it has fetched: the WQEs in the overwritten slots are lost.
#include <fmt/format.h>

#include "sim/checkers/sq_overrun.h"
#include "models/ascend/udma_engine.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(SqOverrunChecker, "sq_overrun", 10, "a doorbell published WQEs past the ring before the engine read the old ones", kSqOverrun);

void SqOverrunChecker::on_sq_overrun(const QpRef& q, uint32_t producer, uint32_t consumed, uint32_t depth, Ps t) {
  Hazard h;
  h.id = kSqOverrun.name;
  h.pe = q.pe;
  h.slot = q.slot;
  h.qp = q.qp;
  h.core = m_ctx.sites.doorbell_core(q, producer);
  h.wqe = consumed;
  h.time_ps = t;
  h.site = site_text(m_ctx.sites.doorbell_site(q, producer));
  if (const UdmaQp* u = m_ctx.engine_qp(q)) h.addr = m_ctx.addr(u->sq_base + uint64_t{consumed % depth} * 64);
  h.detail = fmt::format(
      "doorbell published producer index {} while the engine had fetched {} WQEBBs of a {}-WQEBB ring: the WQEs "
      "at {}..{} were overwritten before the engine read them (post only while head - tail + n + guard < depth)",
      producer, consumed, depth, consumed, producer - depth - 1);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
