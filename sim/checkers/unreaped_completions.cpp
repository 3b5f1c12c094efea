// unreaped_completions: every CQE a kernel asks for (the WQE's cqe flag) must be polled and
// returned with the CQ doorbell; ones still outstanding when every program has finished fill
// the CQ over repeated launches. QPs with error CQEs are cqe_error_unchecked's business.
#include <fmt/format.h>

#include "sim/checkers/unreaped_completions.h"

#include "sim/checkers/qp_record.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(UnreapedCompletionsChecker, "unreaped_completions", 70, "CQEs a kernel asked for and never polled by the end of the run", kUnreapedCompletions);

namespace {
constexpr size_t kKept = 4096;
}

void UnreapedCompletionsChecker::on_executed(const WqeRecord& r, QpRecord& rec) {
  if (!(r.flags & 0x20) && r.status == 0) return;  // no CQE asked for
  QpCompletions& c = rec.unreaped;
  c.qp = r.qp;
  ++c.requested;
  if (r.status != 0 || r.substatus != 0) c.errors = true;
  if (r.cqe_ps != 0) {
    auto& w = c.wqe_of_cqe;
    w.emplace_back(r.cqe_index, r.wqe_index);
    // Forget CQEs returned already, and all but the newest kKept.
    while (!w.empty() && (w.size() > kKept || static_cast<int32_t>(w.front().first - c.consumed) < 0))
      w.pop_front();
  }
}

void UnreapedCompletionsChecker::on_cq_consumed(const QpRef& q, uint32_t consumer, QpRecord& rec) {
  QpCompletions& c = rec.unreaped;
  c.qp = q;
  c.consumed = consumer;
}

void UnreapedCompletionsChecker::on_kernel_trap(int pe, int, const char*, const std::string&, Ps) {
  m_trapped.insert(pe);
}

void UnreapedCompletionsChecker::finish(Ps end_ps, bool completed) {
  if (!completed) return;  // a hang is the report, not what it left behind
  for (const auto& [ref, entry] : m_ctx.qps->in_order()) {
    const QpCompletions& c = entry->unreaped;
    if (c.errors || m_trapped.count(c.qp.pe)) continue;
    const uint64_t outstanding = c.requested - c.consumed;
    if (c.requested <= c.consumed) continue;
    uint32_t wqe = 0;
    for (size_t i = 0; i < c.wqe_of_cqe.size(); ++i)
      if (static_cast<int32_t>(c.wqe_of_cqe[i].first - c.consumed) >= 0) {
        wqe = c.wqe_of_cqe[i].second;
        break;
      }
    Hazard h = m_ctx.at_wqe(kUnreapedCompletions, c.qp, wqe, end_ps);
    h.detail = fmt::format(
        "{} of the {} CQEs requested on this QP were never polled (first: CQE {} of WQE {}); drain them with "
        "aclshmemx_udma_quiet / qp_quiet, or ring the CQ doorbell after polling, before the kernel ends",
        outstanding, c.requested, c.consumed, wqe);
    m_ctx.log.report(std::move(h));
  }
}

}  // namespace symsim
