// src_reuse_before_completion, judged by happens-before: a put's engine may read its source
// any time until the put completes, and its PE may rewrite the source only once it knows the
// put complete (quiet, a CQE poll covering it, a CQ doorbell past its CQE). A write on the same
// PE after the post and before that knowledge races with the engine's read, whatever wrote it:
// a core copy, a scalar store written back by dcci, st_dev, a SIMT atomic, a host copy. It is
// reported even when the put happened to have completed already (`observed`: false, the
// missing quiet named); `observed` when the put was still in flight. Both orders of discovery
// are seen: the rewrite may be issued before the engine executed the WQE (temporal decoupling
// lets cores run ahead). A rewrite by a later launch or by the host after the launch ended is
// judged by timing only (the launch boundary stands in for the host's own synchronisation).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <functional>

#include "sim/checkers/src_reuse_before_completion.h"
#include "sim/checkers/qp_record.h"
#include "models/ascend/wqe_layout.h"
#include "models/platform/ascend_system.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(SrcReuseChecker, "src_reuse_before_completion", 90, "a put's source rewritten after the put was posted and before its PE knew it complete", kSrcReuseBeforeCompletion);

namespace {
constexpr Ps kKeepWritesPs = 50 * kPsPerUs;
// Core writes are filed by 64 KiB chunk, not by 4 KiB page: a MoE token or row (7-14 KiB) touches
// one or two chunks where it touched two to four pages, and the table of chunks' newest filings
// keeps 16 times fewer keys, so it is rebuilt far less often (PageHeads drops stale keys when it
// would grow). A put then also meets the writes of its chunks that miss its source; judge()
// tests the overlap first, so the same writes are judged, in the same (newest first) order.
constexpr uint64_t kChunkBytes = 64 * 1024;
// The chunks [begin, begin + bytes) touches (no bytes: the chunk of `begin`).
uint64_t first_chunk(uint64_t begin) { return begin / kChunkBytes; }
uint64_t last_chunk(uint64_t begin, uint64_t bytes) { return (bytes ? begin + bytes - 1 : begin) / kChunkBytes; }
}  // namespace

Ps SrcReuseChecker::doorbell_delay_ps() const {
  if (m_doorbell_delay_ps == kNoDelayYet)
    m_doorbell_delay_ps = m_ctx.sys.params().ns(m_ctx.sys.params().udma_doorbell_ns);
  return m_doorbell_delay_ps;
}

void SrcReuseChecker::judge(const Window& win, const Rewrite& w) {
  const Put& first = win.first;
  if (w.pe != first.qp.pe) return;
  const auto* src = reinterpret_cast<const uint8_t*>(first.local_va);
  if (w.dst >= src + first.bytes || w.dst + w.bytes <= src) return;
  if (w.t < posted_ps(first.doorbell_ps)) return;
  // The put the rewrite is not ordered after: the first of the window unless the PE knew it
  // complete by then, else the last (posted before the rewrite and not known complete).
  const Put* r = &first;
  if (settled(win, first, w.t)) {
    if (w.t < posted_ps(win.last.doorbell_ps) || settled(win, win.last, w.t)) return;
    r = &win.last;
  }
  report(win, w, *r, src);
}

void SrcReuseChecker::report(const Window& win, const Rewrite& w, const Put& put, const uint8_t* src) {
  const Put* r = &put;
  const bool observed = w.t < win.complete_ps;
  Hazard h;
  h.id = kSrcReuseBeforeCompletion.name;
  h.pe = w.pe;
  h.core = w.core;
  h.slot = r->qp.slot;
  h.qp = r->qp.qp;
  h.wqe = r->wqe_index;
  h.addr = m_ctx.addr(std::max<const uint8_t*>(w.dst, src));
  h.time_ps = w.t;
  h.site = site_text(w.site);
  h.observed = observed;
  const auto posted_at = m_ctx.sites.site_of(r->qp, r->wqe_index);
  const std::string what = fmt::format(
      "a {} rewrote {} bytes of the source of WQE {} ({} of {} bytes to PE {}{}) at {}", w.what, w.bytes,
      r->wqe_index, opcode_text(r->opcode), r->bytes, r->target_pe, posted_at.known() ? ", posted" + at_site(posted_at) : "",
      us_text(w.t));
  const std::string edge =
      fmt::format("no quiet or CQE poll covering WQE {} on QP {} (slot {}) between its post and this rewrite",
                  r->wqe_index, r->qp.qp, r->qp.slot);
  if (observed) {
    h.detail = fmt::format("{}, before the put completed at {}: the engine may send the new bytes; {} (wait with "
                           "aclshmemx_udma_quiet before reusing a source)",
                           what, us_text(win.complete_ps), edge);
  } else {
    h.detail = fmt::format("{}; the put had completed (at {}) only by timing: {}, so the engine may still read the "
                           "source on other timing (wait with aclshmemx_udma_quiet before reusing a source)",
                           what, us_text(win.complete_ps), edge);
  }
  m_ctx.log.report(std::move(h));
}

void SrcReuseChecker::on_block_start(int pe, int, const char*, Ps) {
  if (static_cast<size_t>(pe) >= m_running.size()) m_running.resize(static_cast<size_t>(pe) + 1, 0);
  ++m_running[pe];
}

void SrcReuseChecker::on_block_end(int pe, int, const char*, Ps) {
  if (static_cast<size_t>(pe) >= m_running.size() || --m_running[pe] > 0) return;
  // The launch is over: its completed puts are the host's to synchronise (once per launch).
  if (static_cast<size_t>(pe) >= m_sources.size()) return;
  const Ps now = sim_now_ps();
  Sources& sources = m_sources[pe];
  ++m_epoch;
  for (auto it = sources.begin(); it != sources.end();)
    it = it->second.complete_ps < now ? sources.erase(it) : std::next(it);
}

void SrcReuseChecker::add_put(const WqeRecord& r, QpRecord& rec) {
  const Put put = put_of(r);
  const Window single{put, r.complete_ps, put, &rec};
  const Ps posted = posted_ps(r.doorbell_ps);
  if (may_follow_writes(r.qp.pe, posted)) {
    // The writes that may overlap the source and start after the post, newest first (along a
    // chunk's chain the writes get older).
    const PeWrites& writes = m_writes[static_cast<size_t>(r.qp.pe)];
    m_found.clear();
    const uint64_t first = first_chunk(r.local_va), last = last_chunk(r.local_va, r.bytes);
    for (uint64_t p = first; p <= last; ++p) {
      for (uint64_t n = writes.newest.get(p); n != PageHeads::kNone && n >= writes.first_filing;) {
        const Filing& f = writes.filings[n - writes.first_filing];
        if (f.seq < writes.first_seq || writes.list[f.seq - writes.first_seq].made_ps + m_max_lead_ps < posted) break;
        m_found.push_back(f.seq);
        n = f.older;
      }
    }
    if (first != last) {
      std::sort(m_found.begin(), m_found.end(), std::greater<uint64_t>());
      m_found.erase(std::unique(m_found.begin(), m_found.end()), m_found.end());
    }
    for (const uint64_t seq : m_found) {
      const Write& w = writes.list[seq - writes.first_seq];
      judge(single, {r.qp.pe, w.core, w.dst, w.bytes, w.issue_ps, w.site, w.what});
    }
  }
  const auto pe = static_cast<size_t>(r.qp.pe);
  if (pe >= m_sources.size()) {
    m_sources.resize(pe + 1, Sources(PoolAllocator<std::pair<const SourceKey, Window>>(&m_source_nodes)));
    ++m_epoch;
  }
  const SourceKey key{r.local_va, r.bytes, r.qp.slot, r.qp.qp};
  QpLast& last = rec.src_reuse;
  bool new_source = false;
  if (!is_last(last, key.va, key.bytes)) {
    const auto inserted = m_sources[pe].try_emplace(key, single);
    last = {&inserted.first->second, m_epoch};
    new_source = inserted.second;
  }
  Window& win = *last.win;
  if (!new_source) {
    if (CompletionKnowledge::known(rec.completions, win.last.wqe_index).t <= posted) {  // settled(), no lookup: same QP
      win = single;  // the PE knew every earlier put of this source complete: a new window
    } else {
      win.last = put;
      win.complete_ps = std::max(win.complete_ps, r.complete_ps);
    }
  }
  if (win.first.wqe_index == r.wqe_index) queue(r.complete_ps, {r.qp.pe, key, &win, m_epoch});
  m_max_source_bytes = std::max<uint64_t>(m_max_source_bytes, r.bytes);
  if (pe >= m_source_span.size()) m_source_span.resize(pe + 1, {UINT64_MAX, 0});
  auto& span = m_source_span[pe];
  span = {std::min(span.first, r.local_va), std::max(span.second, r.local_va + r.bytes)};
  prune(sim_now_ps());
}

void SrcReuseChecker::expire(Ps now) {
  // A window forgets itself once complete and known complete (no later write can race with
  // it), or complete after its launch ended; visit only the windows that may have completed.
  while (!m_expiry.empty() && m_expiry.front().t < now) {
    const uint32_t id = m_expiry.front().expiry;
    Expiry& top = m_expiries[id];
    const int pe = top.pe;
    Sources& sources = m_sources[static_cast<size_t>(pe)];
    if (top.epoch != m_epoch) {  // a window was erased or a map moved since: find it by key
      const auto it = sources.find(top.key);
      top.win = it == sources.end() ? nullptr : &it->second;
      top.epoch = m_epoch;
    }
    const Window* win = top.win;
    if (win && win->complete_ps >= now) {  // extended since: look again when the last put completes
      requeue_top(win->complete_ps);
      continue;
    }
    const SourceKey key = top.key;
    std::pop_heap(m_expiry.begin(), m_expiry.end(), std::greater<Due>());
    m_expiry.pop_back();
    m_free_expiries.push_back(id);
    if (!win) continue;
    const bool launch_over = static_cast<size_t>(pe) >= m_running.size() || m_running[pe] == 0;
    if (launch_over || settled(*win, win->last, now)) {
      sources.erase(key);
      ++m_epoch;
    }
    // Else it waits for a reap or the launch end (one entry per source, not per put).
  }
}

void SrcReuseChecker::requeue_top(Ps t) {
  // Sift the earliest entry, now due at `t`, down to its place.
  Due moving = m_expiry.front();
  moving.t = t;
  const size_t n = m_expiry.size();
  size_t i = 0;
  for (size_t child = 1; child < n; child = 2 * i + 1) {
    if (child + 1 < n && m_expiry[child] > m_expiry[child + 1]) ++child;
    if (!(moving > m_expiry[child])) break;
    m_expiry[i] = m_expiry[child];
    i = child;
  }
  m_expiry[i] = moving;
}

void SrcReuseChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (at.dst.unified_buffer || at.dst.ring_pe >= 0) return;
  on_rewrite({c.pe, c.core, c.dst, c.bytes, c.issue_ps, c.site, "copy"});
}

void SrcReuseChecker::on_gm_store(const StoreRecord& s) {
  if (m_ctx.in_unified_buffer(s.dst) || m_ctx.in_queue_ring(s.dst)) return;
  on_rewrite({s.pe, s.core, s.dst, s.bytes, s.t, s.site, s.what});
}

void SrcReuseChecker::on_rewrite(const Rewrite& c) {
  const Ps now = sim_now_ps();
  prune(now);  // windows that completed after their launch ended are the host's (no WQE since)
  // Only sources that start within the longest put before the write's end can overlap it.
  const auto dst = reinterpret_cast<uint64_t>(c.dst);
  const uint64_t from = dst > m_max_source_bytes ? dst - m_max_source_bytes : 0;
  const auto pe = static_cast<size_t>(c.pe);
  const bool near_sources = pe < m_source_span.size() && pe < m_sources.size() && dst < m_source_span[pe].second &&
                            m_source_span[pe].first < dst + c.bytes;
  if (near_sources) {
    const Sources& sources = m_sources[pe];
    for (auto it = sources.lower_bound({from, 0, INT32_MIN, INT32_MIN});
         it != sources.end() && it->first.va < dst + c.bytes; ++it)
      judge(it->second, c);
  }
  if (m_writes.empty()) {
    m_writes.resize(static_cast<size_t>(m_ctx.sys.n_pes()));
    m_newest_made_ps.assign(m_writes.size(), kNoWrite);
  }
  PeWrites& writes = m_writes[pe];
  while (!writes.list.empty() && writes.list.front().made_ps + kKeepWritesPs < now) {
    writes.list.pop_front();
    ++writes.first_seq;
  }
  while (!writes.filings.empty() && writes.filings.front().seq < writes.first_seq) {
    writes.filings.pop_front();
    ++writes.first_filing;
  }
  const uint64_t seq = writes.first_seq + writes.list.size();
  writes.list.emplace_back(Write{c.dst, c.bytes, c.t, now, c.core, c.site, c.what});
  m_newest_made_ps[pe] = now;
  const auto begin = reinterpret_cast<uint64_t>(c.dst);
  for (uint64_t p = first_chunk(begin), last = last_chunk(begin, c.bytes); p <= last; ++p) {
    const uint64_t n = writes.first_filing + writes.filings.size();
    writes.filings.emplace_back(Filing{seq, writes.newest.set(p, n, writes.first_filing)});  // one probe of the chunk
  }
  m_max_lead_ps = std::max(m_max_lead_ps, c.t > now ? c.t - now : Ps{0});
}

}  // namespace symsim
