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
  int dst_pe = -1;
  uint64_t begin = 0, end = 0;
  if (r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify) {
    dst_pe = r.target_pe, begin = r.remote_va, end = r.remote_va + r.bytes;
  } else if (r.opcode == udma::kRead) {
    dst_pe = r.qp.pe, begin = r.local_va, end = r.local_va + r.bytes;
  } else {
    return;
  }
  if (dst_pe < 0) return;
  if (static_cast<size_t>(dst_pe) >= m_recent.size()) m_recent.resize(static_cast<size_t>(dst_pe) + 1);
  std::map<Key, Landing>& recent = m_recent[static_cast<size_t>(dst_pe)];
  const Key from{begin > m_max_len ? begin - m_max_len : 0, 0, -1, -1, -1};
  for (auto it = recent.lower_bound(from); it != recent.end(); ++it) {
    const Landing& e = it->second;
    if (e.begin >= end) break;
    if (e.end <= begin || qp_key(e.qp) == qp_key(r.qp)) continue;
    if (r.doorbell_ps >= e.complete_ps || e.doorbell_ps >= r.complete_ps) continue;
    Hazard h = m_ctx.at_wqe("dst_write_race", r.qp, r.wqe_index, r.fetch_ps);
    h.addr = m_ctx.addr(std::max(e.begin, begin));
    h.detail = fmt::format(
        "WQE {} of QP {} (PE {} -> PE {}) and WQE {} of QP {} (PE {} -> PE {}{}) both write {} bytes at {} on PE {}, "
        "and neither was posted after the other completed: the final bytes depend on timing",
        r.wqe_index, r.qp.qp, r.qp.pe, r.qp.slot, e.wqe, e.qp.qp, e.qp.pe, e.qp.slot,
        at_site(m_ctx.sites.site_of(e.qp, e.wqe)), std::min(e.end, end) - std::max(e.begin, begin), h.addr, dst_pe);
    m_ctx.log.report(std::move(h));
    break;
  }
  const Key key{begin, end, r.qp.pe, r.qp.slot, r.qp.qp};
  recent[key] = Landing{begin, end, r.qp, r.wqe_index, r.doorbell_ps, r.complete_ps};
  m_expiry.push({r.complete_ps + kKeepPs, {dst_pe, key}});
  m_max_len = std::max(m_max_len, end - begin);
  // Forget writes long complete (an entry replaced by a later landing waits for its own expiry).
  const Ps now = sim_now_ps();
  while (!m_expiry.empty() && m_expiry.top().first < now) {
    const auto& [pe, k] = m_expiry.top().second;
    std::map<Key, Landing>& m = m_recent[static_cast<size_t>(pe)];
    const auto it = m.find(k);
    if (it != m.end() && it->second.complete_ps + kKeepPs < now) m.erase(it);
    m_expiry.pop();
  }
}

}  // namespace symsim
