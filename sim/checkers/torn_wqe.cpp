// torn_wqe: a WQE staged in UB reaches the ring by an MTE3 copy; a doorbell rung before that
// copy completes lets the engine fetch the slot's old bytes.
#include <fmt/format.h>

#include <algorithm>

#include "sim/checkers/torn_wqe.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(TornWqeChecker, "torn_wqe", 30, "the engine fetched a WQE whose bytes an MTE3 copy had not yet landed", kTornWqe);

void TornWqeChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  const int pe = at.dst.ring_pe;
  if (pe < 0) return;
  if (static_cast<size_t>(pe) >= m_pending.size()) m_pending.resize(static_cast<size_t>(pe) + 1);
  // The engine of `pe` fetches only from its own rings: a fetch looks at that PE's copies.
  std::vector<CopyRecord>& pending = m_pending[static_cast<size_t>(pe)];
  const Ps now = sim_now_ps();
  pending.erase(std::remove_if(pending.begin(), pending.end(), [&](const CopyRecord& p) { return p.visible_ps < now; }),
                pending.end());
  pending.push_back(c);
}

void TornWqeChecker::on_fetched(const QpRef& q, uint32_t wqe, const uint8_t* slot, uint32_t bytes, Ps t) {
  if (q.pe < 0 || static_cast<size_t>(q.pe) >= m_pending.size()) return;  // the engine's rings are its PE's
  for (const CopyRecord& c : m_pending[static_cast<size_t>(q.pe)]) {
    if (c.visible_ps <= t || c.dst >= slot + bytes || c.dst + c.bytes <= slot) continue;
    Hazard h = m_ctx.at_wqe(kTornWqe, q, wqe, t);
    h.core = c.core;
    h.addr = m_ctx.addr(slot);
    h.detail = fmt::format(
        "the engine fetched WQE {} at {} but the MTE3 copy of its bytes{} lands only at {}: the doorbell was rung "
        "before the copy completed (SetFlag/WaitFlag<MTE3_S> before st_dev), so the engine read stale bytes "
        "({} in the slot)",
        wqe, us_text(t), at_site(c.site), us_text(c.visible_ps), opcode_text(udma::peek_opcode(slot)));
    m_ctx.log.report(std::move(h));
    return;
  }
}

}  // namespace symsim
