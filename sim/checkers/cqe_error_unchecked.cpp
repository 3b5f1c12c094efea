// cqe_error_unchecked: an error CQE must stop the kernel (the SHMEM API traps on it, as
// upstream does). One that is never polled, or that the CQ doorbell moves past while the
// kernel carries on, means the kernel ignored the status. A trap on the PE after the error
// counts as checked (a hand-written poller that traps before ringing the CQ doorbell).
#include <fmt/format.h>

#include <algorithm>

#include "sim/checkers/cqe_error_unchecked.h"
#include "models/ascend/udma_engine.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(CqeErrorUncheckedChecker, "cqe_error_unchecked", 60, "an error CQE never polled, or consumed without the kernel stopping", kCqeErrorUnchecked);

void CqeErrorUncheckedChecker::on_executed(const WqeRecord& r) {
  if (r.status == 0 && r.substatus == 0) return;
  if (r.cqe_ps == 0) return;  // no CQE written (none asked, or lost to an overflow)
  QpErrors& q = m_qps[r.qp];
  if (q.errors.empty()) q.first_error_ps = r.cqe_ps;
  q.errors.push_back(m_errors.size());
  m_errors.push_back({r.qp, r.cqe_index, r.wqe_index, r.status, r.substatus, r.cqe_ps});
}

void CqeErrorUncheckedChecker::on_reaped(const QpRef& q, uint32_t index) {
  QpErrors* errors = m_qps.find(q);
  if (!errors) return;
  // CQE indices rise along the list, so the one reaped is at most one step from where a
  // poll of consecutive CQEs expects it; otherwise search.
  const std::vector<size_t>& list = errors->errors;
  const auto below = [&](size_t e, uint32_t i) { return static_cast<int32_t>(m_errors[e].cqe_index - i) < 0; };
  auto it = std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(errors->consumed), list.end(), index, below);
  if (it == list.end() || m_errors[*it].cqe_index != index)
    it = std::lower_bound(list.begin(), list.end(), index, below);
  for (; it != list.end() && m_errors[*it].cqe_index == index; ++it) m_errors[*it].reaped = true;
}

void CqeErrorUncheckedChecker::on_cq_consumed(const QpRef& q, uint32_t consumer, Ps t) {
  QpErrors* errors = m_qps.find(q);
  if (!errors) return;
  const std::vector<size_t>& list = errors->errors;
  while (errors->consumed < list.size()) {
    ErrorCqe& e = m_errors[list[errors->consumed]];
    if (static_cast<int32_t>(consumer - e.cqe_index) <= 0) break;
    if (e.consumed_ps == 0) e.consumed_ps = t;
    ++errors->consumed;
  }
}

void CqeErrorUncheckedChecker::on_kernel_trap(int pe, int, const char*, const std::string&, Ps t) {
  m_last_trap[pe] = std::max(m_last_trap[pe], t);
}

void CqeErrorUncheckedChecker::finish(Ps, bool) {
  for (const ErrorCqe& e : m_errors) {
    if (e.reaped) continue;
    // A trap after the QP's first error stopped the kernel on it (the flushed CQEs that follow
    // may land after the trap).
    const auto trap = m_last_trap.find(e.qp.pe);
    if (trap != m_last_trap.end() && trap->second >= m_qps.find(e.qp)->first_error_ps) continue;
    Hazard h = m_ctx.at_wqe(kCqeErrorUnchecked, e.qp, e.wqe_index, e.consumed_ps ? e.consumed_ps : e.cqe_ps);
    if (const UdmaQp* u = m_ctx.engine_qp(e.qp)) h.addr = m_ctx.addr(u->cq_base + uint64_t{e.cqe_index % u->cq_depth} * 64);
    h.detail = e.consumed_ps
                   ? fmt::format("CQE {} of WQE {} reported an error ({}) and the CQ doorbell consumed it at {} "
                                 "without the kernel stopping: the status was ignored",
                                 e.cqe_index, e.wqe_index, substatus_text(e.status, e.substatus), us_text(e.consumed_ps))
                   : fmt::format("CQE {} of WQE {} reported an error ({}) at {} and was never polled",
                                 e.cqe_index, e.wqe_index, substatus_text(e.status, e.substatus), us_text(e.cqe_ps));
    m_ctx.log.report(std::move(h));
  }
}

}  // namespace symsim
