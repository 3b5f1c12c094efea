// src_reuse_before_completion: a put's engine may read its source any time until the put
// completes (the CQE says so); a core copy that rewrites the source after the doorbell and
// before the completion races with that read. Both orders are seen: the rewrite may be
// issued before the engine fetched the WQE (temporal decoupling lets cores run ahead).
#include <fmt/format.h>

#include <algorithm>

#include "checkers/checkers.h"
#include "models/ascend/wqe_layout.h"
#include "models/platform/ascend_system.h"

namespace symsim {

namespace {
constexpr Ps kKeepWritesPs = 50 * kPsPerUs;
bool reads_source(uint8_t opcode) {
  return opcode == udma::kWrite || opcode == udma::kWriteImm || opcode == udma::kWriteWithNotify;
}
}  // namespace

void SrcReuseChecker::judge(const WqeRecord& r, const CopyRecord& c) {
  if (c.pe != r.qp.pe) return;
  const auto* src = reinterpret_cast<const uint8_t*>(r.local_va);
  if (c.dst >= src + r.bytes || c.dst + c.bytes <= src) return;
  const Ps posted = r.doorbell_ps - m_ctx.sys.params().ns(m_ctx.sys.params().udma_doorbell_ns);
  if (c.issue_ps < posted || c.issue_ps >= r.complete_ps) return;
  Hazard h;
  h.id = "src_reuse_before_completion";
  h.pe = c.pe;
  h.core = c.core;
  h.slot = r.qp.slot;
  h.qp = r.qp.qp;
  h.wqe = r.wqe_index;
  h.addr = m_ctx.addr(std::max<const uint8_t*>(c.dst, src));
  h.time_ps = c.issue_ps;
  h.site = site_text(c.site);
  h.detail = fmt::format(
      "a copy rewrote {} bytes of the source of WQE {} ({} of {} bytes to PE {}{}) at {}, before the put completed "
      "at {}: the engine may send the new bytes (wait with aclshmemx_udma_quiet before reusing a source)",
      c.bytes, r.wqe_index, opcode_text(r.opcode), r.bytes, r.target_pe,
      m_ctx.sites.site_of(r.qp, r.wqe_index).file ? ", posted" + at_site(m_ctx.sites.site_of(r.qp, r.wqe_index)) : "",
      us_text(c.issue_ps), us_text(r.complete_ps));
  m_ctx.log.report(std::move(h));
}

void SrcReuseChecker::on_wqe_executed(const WqeRecord& r) {
  if (!reads_source(r.opcode) || r.status != 0) return;
  for (const CopyRecord& c : m_writes) judge(r, c);
  std::vector<WqeRecord>& windows = m_sources[{r.qp.pe, r.qp.slot, r.qp.qp, r.local_va, r.bytes}];
  if (!windows.empty() && r.doorbell_ps <= windows.back().complete_ps) {
    windows.back().complete_ps = std::max(windows.back().complete_ps, r.complete_ps);  // still in flight: merge
  } else {
    windows.push_back(r);
  }
  if (++m_added % 1024 == 0) prune();
}

void SrcReuseChecker::prune() {
  const Ps now = sim_now_ps();
  for (auto it = m_sources.begin(); it != m_sources.end();) {
    auto& w = it->second;
    w.erase(std::remove_if(w.begin(), w.end(), [&](const WqeRecord& r) { return r.complete_ps < now; }), w.end());
    it = w.empty() ? m_sources.erase(it) : std::next(it);
  }
}

void SrcReuseChecker::on_copy(const CopyRecord& c) {
  if (m_ctx.in_unified_buffer(c.dst) || m_ctx.in_queue_ring(c.dst)) return;
  for (const auto& [key, windows] : m_sources)
    for (const WqeRecord& r : windows) judge(r, c);
  const Ps now = sim_now_ps();
  m_writes.erase(std::remove_if(m_writes.begin(), m_writes.end(),
                                [&](const CopyRecord& w) { return w.issue_ps + kKeepWritesPs < now; }),
                 m_writes.end());
  m_writes.push_back(c);
}

}  // namespace symsim
