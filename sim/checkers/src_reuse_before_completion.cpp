// src_reuse_before_completion: a put's engine may read its source any time until the put
// completes (the CQE says so); a write on the same PE that rewrites the source after the
// doorbell and before the completion races with that read, whatever wrote it: a core copy, a
// scalar store written back by dcci, st_dev, a SIMT atomic, a host copy. Both orders are seen:
// the rewrite may be issued before the engine fetched the WQE (temporal decoupling lets cores
// run ahead).
#include <fmt/format.h>

#include <algorithm>
#include <climits>

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

void SrcReuseChecker::judge(const WqeRecord& r, const Rewrite& w) {
  if (w.pe != r.qp.pe) return;
  const auto* src = reinterpret_cast<const uint8_t*>(r.local_va);
  if (w.dst >= src + r.bytes || w.dst + w.bytes <= src) return;
  const Ps posted = r.doorbell_ps - m_ctx.sys.params().ns(m_ctx.sys.params().udma_doorbell_ns);
  if (w.t < posted || w.t >= r.complete_ps) return;
  Hazard h;
  h.id = "src_reuse_before_completion";
  h.pe = w.pe;
  h.core = w.core;
  h.slot = r.qp.slot;
  h.qp = r.qp.qp;
  h.wqe = r.wqe_index;
  h.addr = m_ctx.addr(std::max<const uint8_t*>(w.dst, src));
  h.time_ps = w.t;
  h.site = site_text(w.site);
  h.detail = fmt::format(
      "a {} rewrote {} bytes of the source of WQE {} ({} of {} bytes to PE {}{}) at {}, before the put completed "
      "at {}: the engine may send the new bytes (wait with aclshmemx_udma_quiet before reusing a source)",
      w.what, w.bytes, r.wqe_index, opcode_text(r.opcode), r.bytes, r.target_pe,
      m_ctx.sites.site_of(r.qp, r.wqe_index).known() ? ", posted" + at_site(m_ctx.sites.site_of(r.qp, r.wqe_index)) : "",
      us_text(w.t), us_text(r.complete_ps));
  m_ctx.log.report(std::move(h));
}

void SrcReuseChecker::on_wqe_executed(const WqeRecord& r) {
  if (!reads_source(r.opcode) || r.status != 0) return;
  if (static_cast<size_t>(r.qp.pe) < m_writes.size()) {
    const std::deque<Write>& writes = m_writes[r.qp.pe];
    const auto* src = reinterpret_cast<const uint8_t*>(r.local_va);
    const Ps posted = r.doorbell_ps - m_ctx.sys.params().ns(m_ctx.sys.params().udma_doorbell_ns);
    for (auto w = writes.rbegin(); w != writes.rend() && w->made_ps + m_max_lead_ps >= posted; ++w) {
      if (w->dst >= src + r.bytes || w->dst + w->bytes <= src) continue;
      judge(r, {r.qp.pe, w->core, w->dst, w->bytes, w->issue_ps, w->site, w->what});
    }
  }
  const auto pe = static_cast<size_t>(r.qp.pe);
  if (pe >= m_sources.size()) m_sources.resize(pe + 1);
  const SourceKey key{r.local_va, r.bytes, r.qp.slot, r.qp.qp};
  const auto [it, new_source] = m_sources[pe].try_emplace(key);
  std::vector<WqeRecord>& windows = it->second;
  if (!windows.empty() && r.doorbell_ps <= windows.back().complete_ps) {
    windows.back().complete_ps = std::max(windows.back().complete_ps, r.complete_ps);  // still in flight: merge
  } else {
    windows.push_back(r);  // completes after every earlier window of this source
  }
  // One expiry per source, at or before its earliest window's completion (prune moves it on):
  // a stream of puts of one buffer costs a heap entry per window, not one per WQE.
  if (new_source) m_expiry.push({r.complete_ps, r.qp.pe, key});
  m_max_source_bytes = std::max<uint64_t>(m_max_source_bytes, r.bytes);
  if (pe >= m_source_span.size()) m_source_span.resize(pe + 1, {UINT64_MAX, 0});
  auto& span = m_source_span[pe];
  span = {std::min(span.first, r.local_va), std::max(span.second, r.local_va + r.bytes)};
  prune();
}

void SrcReuseChecker::prune() {
  // Windows complete in the past can no longer race; visit only the sources whose windows
  // may have ended since the last call.
  const Ps now = sim_now_ps();
  while (!m_expiry.empty() && std::get<0>(m_expiry.top()) < now) {
    Sources& sources = m_sources[static_cast<size_t>(std::get<1>(m_expiry.top()))];
    const Expiry expiry = m_expiry.top();
    m_expiry.pop();
    const auto it = sources.find(std::get<2>(expiry));
    if (it == sources.end()) continue;
    auto& w = it->second;
    w.erase(std::remove_if(w.begin(), w.end(), [&](const WqeRecord& r) { return r.complete_ps < now; }), w.end());
    if (w.empty()) {
      sources.erase(it);
    } else {  // the source's next expiry: its earliest window left (all complete at or after now)
      Ps next = w.front().complete_ps;
      for (const WqeRecord& r : w) next = std::min(next, r.complete_ps);
      m_expiry.push({next, std::get<1>(expiry), std::get<2>(expiry)});
    }
  }
}

void SrcReuseChecker::on_copy(const CopyRecord& c) {
  if (m_ctx.in_unified_buffer(c.dst) || m_ctx.in_queue_ring(c.dst)) return;
  on_rewrite({c.pe, c.core, c.dst, c.bytes, c.issue_ps, c.site, "copy"});
}

void SrcReuseChecker::on_gm_store(const StoreRecord& s) {
  if (m_ctx.in_unified_buffer(s.dst) || m_ctx.in_queue_ring(s.dst)) return;
  on_rewrite({s.pe, s.core, s.dst, s.bytes, s.t, s.site, s.what});
}

void SrcReuseChecker::on_rewrite(const Rewrite& c) {
  // Only sources that start within the longest put before the write's end can overlap it.
  const auto dst = reinterpret_cast<uint64_t>(c.dst);
  const uint64_t from = dst > m_max_source_bytes ? dst - m_max_source_bytes : 0;
  const auto pe = static_cast<size_t>(c.pe);
  const bool near_sources = pe < m_source_span.size() && pe < m_sources.size() && dst < m_source_span[pe].second &&
                            m_source_span[pe].first < dst + c.bytes;
  if (near_sources) {
    const Sources& sources = m_sources[pe];
    for (auto it = sources.lower_bound({from, 0, INT32_MIN, INT32_MIN});
         it != sources.end() && std::get<0>(it->first) < dst + c.bytes; ++it)
      for (const WqeRecord& r : it->second) judge(r, c);
  }
  const Ps now = sim_now_ps();
  if (m_writes.empty()) m_writes.resize(static_cast<size_t>(m_ctx.sys.n_pes()));
  std::deque<Write>& writes = m_writes[pe];
  while (!writes.empty() && writes.front().made_ps + kKeepWritesPs < now) writes.pop_front();
  writes.push_back({c.dst, c.bytes, c.t, now, c.core, c.site, c.what});
  m_max_lead_ps = std::max(m_max_lead_ps, c.t > now ? c.t - now : Ps{0});
}

}  // namespace symsim
