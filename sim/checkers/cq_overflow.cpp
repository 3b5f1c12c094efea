// cq_overflow: the engine had a CQE to write and the CQ held only unconsumed entries. As on
// RDMA hardware the CQE is lost, the QP enters the error state (an asynchronous error) and
// its later WQEs are flushed. The engine reports the overflow just before the WQE it
// belongs to, which names the WQE and the call that posted it.
#include <fmt/format.h>

#include "sim/checkers/cq_overflow.h"
#include "models/ascend/udma_engine.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(CqOverflowChecker, "cq_overflow", 40, "a CQE had no room in its CQ (the QP then enters the error state)", kCqOverflow);

void CqOverflowChecker::on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) {
  m_pending[qp_key(q)] = {produced, consumed, t};
}

void CqOverflowChecker::on_executed(const WqeRecord& r) {
  if (m_pending.empty()) return;  // the usual case: no overflow waits for its WQE
  const auto it = m_pending.find(qp_key(r.qp));
  if (it == m_pending.end()) return;
  const Pending p = it->second;
  m_pending.erase(it);
  Hazard h = m_ctx.at_wqe(kCqOverflow, r.qp, r.wqe_index, p.t);
  if (const UdmaQp* u = m_ctx.engine_qp(r.qp)) h.addr = m_ctx.addr(u->cq_base + uint64_t{p.produced % u->cq_depth} * 64);
  h.detail = fmt::format(
      "the CQE of WQE {} ({} {} bytes) found the CQ full: {} CQEs written, {} consumed by the CQ doorbell. The CQE "
      "is lost, the QP entered the error state and its later WQEs are flushed (poll or quiet before the CQ fills)",
      r.wqe_index, opcode_text(r.opcode), r.bytes, p.produced, p.consumed);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
