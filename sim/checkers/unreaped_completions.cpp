// unreaped_completions: every CQE a kernel asks for (the WQE's cqe flag) must be polled and
// returned with the CQ doorbell; ones still outstanding when every program has finished fill
// the CQ over repeated launches. QPs with error CQEs are cqe_error_unchecked's business.
#include <fmt/format.h>

#include "sim/checkers/unreaped_completions.h"

#include "sim/checkers/qp_record.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(UnreapedCompletionsChecker, "unreaped_completions", 70, "CQEs a kernel asked for and never polled by the end of the run", kUnreapedCompletions);

void UnreapedCompletionsChecker::on_cq_consumed(uint32_t consumer, QpRecord& rec) { rec.unreaped.consumed = consumer; }

void UnreapedCompletionsChecker::on_kernel_trap(int pe, int, const char*, const std::string&, Ps) {
  m_trapped.insert(pe);
}

void UnreapedCompletionsChecker::finish(Ps end_ps, bool completed) {
  if (!completed) return;  // a hang is the report, not what it left behind
  for (const auto& [ref, entry] : m_ctx.qps->in_order()) {
    const QpCompletions& c = entry->unreaped;
    if (c.requested <= c.consumed) continue;  // none outstanding (or a record this rule never wrote)
    if (c.errors || m_trapped.count(ref.pe)) continue;
    const uint64_t outstanding = uint64_t{c.requested} - c.consumed;
    uint32_t wqe = 0;
    const CqeLog& w = entry->completions.cqes;
    for (size_t i = 0; i < w.size(CqeLog::kUnreaped); ++i)
      if (static_cast<int32_t>(w.get(CqeLog::kUnreaped, i).cqe - c.consumed) >= 0) {
        wqe = w.get(CqeLog::kUnreaped, i).wqe;
        break;
      }
    Hazard h = m_ctx.at_wqe(kUnreapedCompletions, ref, wqe, end_ps);
    h.detail = fmt::format(
        "{} of the {} CQEs requested on this QP were never polled (first: CQE {} of WQE {}); drain them with "
        "aclshmemx_udma_quiet / qp_quiet, or ring the CQ doorbell after polling, before the kernel ends",
        outstanding, c.requested, c.consumed, wqe);
    m_ctx.log.report(std::move(h));
  }
}

}  // namespace symsim
