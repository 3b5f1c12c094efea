// dst_write_race: two WQEs of different QPs (or PEs) land on overlapping bytes and neither
// was posted after the other completed: nothing orders them, so which bytes win depends on
// timing (multi-QP gives no cross-QP order; give each QP its own slice).
#include <fmt/format.h>

#include <algorithm>

#include "checkers/checkers.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

namespace {
constexpr Ps kKeepPs = 10 * kPsPerUs;
}

void DstWriteRaceChecker::on_wqe_executed(const WqeRecord& r) {
  if (r.status != 0) return;
  Landing n{r, -1, 0, 0};
  if (r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify) {
    n = {r, r.target_pe, r.remote_va, r.remote_va + r.bytes};
  } else if (r.opcode == udma::kRead) {
    n = {r, r.qp.pe, r.local_va, r.local_va + r.bytes};
  } else {
    return;
  }
  const auto from = std::make_tuple(n.dst_pe, n.begin > m_max_len ? n.begin - m_max_len : 0, uint64_t{0}, -1, -1, -1);
  for (auto it = m_recent.lower_bound(from); it != m_recent.end(); ++it) {
    const Landing& e = it->second;
    if (e.dst_pe != n.dst_pe || e.begin >= n.end) break;
    if (e.end <= n.begin || qp_key(e.r.qp) == qp_key(r.qp)) continue;
    if (r.doorbell_ps >= e.r.complete_ps || e.r.doorbell_ps >= r.complete_ps) continue;
    Hazard h = m_ctx.at_wqe("dst_write_race", r.qp, r.wqe_index, r.fetch_ps);
    h.addr = m_ctx.addr(std::max(e.begin, n.begin));
    h.detail = fmt::format(
        "WQE {} of QP {} (PE {} -> PE {}) and WQE {} of QP {} (PE {} -> PE {}{}) both write {} bytes at {} on PE {}, "
        "and neither was posted after the other completed: the final bytes depend on timing",
        r.wqe_index, r.qp.qp, r.qp.pe, r.qp.slot, e.r.wqe_index, e.r.qp.qp, e.r.qp.pe, e.r.qp.slot,
        at_site(m_ctx.sites.site_of(e.r.qp, e.r.wqe_index)), std::min(e.end, n.end) - std::max(e.begin, n.begin),
        h.addr, n.dst_pe);
    m_ctx.log.report(std::move(h));
    break;
  }
  const Key key{n.dst_pe, n.begin, n.end, r.qp.pe, r.qp.slot, r.qp.qp};
  m_recent[key] = n;
  m_expiry.push({r.complete_ps + kKeepPs, key});
  m_max_len = std::max(m_max_len, n.end - n.begin);
  // Forget writes long complete (an entry replaced by a later landing waits for its own expiry).
  const Ps now = sim_now_ps();
  while (!m_expiry.empty() && m_expiry.top().first < now) {
    const auto it = m_recent.find(m_expiry.top().second);
    if (it != m_recent.end() && it->second.r.complete_ps + kKeepPs < now) m_recent.erase(it);
    m_expiry.pop();
  }
}

}  // namespace symsim
