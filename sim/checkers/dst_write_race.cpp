// dst_write_race, judged by happens-before: two WQEs of different QPs (or PEs) land on
// overlapping bytes, and the later one was posted by a core that did not know the earlier one
// complete: no reap of it by that core, and no device barrier after a reap of it, before the
// post (multi-QP gives no cross-QP order; give each QP its own slice). Reported whether or not
// the two were in flight at once this run (`observed`); a launch boundary orders (the host
// synchronises between launches).
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "sim/checkers/dst_write_race.h"
#include "sim/checkers/qp_record.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(DstWriteRaceChecker, "dst_write_race", 100, "two WQEs of different QPs land on overlapping bytes, the later posted before its poster knew the earlier complete", kDstWriteRace);

namespace {
// A landing is kept at least this long after it completed, and until every later post is
// ordered after it (known complete, then a device barrier; or its launch ended).
constexpr Ps kKeepPs = 10 * kPsPerUs;
using Page = PageMultimap<uint32_t>;
// The pages [begin, end) touches (a zero-length write: the page of `begin`).
uint64_t first_page(uint64_t begin) { return Page::page_of(reinterpret_cast<const void*>(begin)); }
uint64_t last_page(uint64_t begin, uint64_t end) {
  return Page::page_of(reinterpret_cast<const void*>(std::max(begin, end - (end > begin ? 1 : 0))));
}
}  // namespace

void DstWriteRaceChecker::forget(uint32_t id) {
  Landing& e = m_pool[id];
  Page& pages = m_pages[static_cast<size_t>(e.dst_pe)];
  for (uint64_t page = first_page(e.begin), last = last_page(e.begin, e.end); page <= last; ++page)
    pages.erase(page, id);
  e.live = false;
  --m_live;
  if (e.launch == m_launch) --m_live_this_launch;
  m_free.push_back(id);
  ++m_epoch;
}

void DstWriteRaceChecker::on_block_start(int, int, const char*, Ps) {
  if (m_running++ == 0) {
    ++m_launch;
    m_live_this_launch = 0;
  }
}

void DstWriteRaceChecker::on_block_end(int, int, const char*, Ps) { --m_running; }

void DstWriteRaceChecker::on_device_barrier(Ps t) {
  if (m_barriers.empty() || t >= m_barriers.back()) m_barriers.push_back(t);
}

bool DstWriteRaceChecker::ordered_after(const Landing& e, int pe, int core, Ps post_ps) const {
  if (e.launch != m_launch) return true;
  const CompletionKnowledge::Known k = m_known.known(e.qp, e.wqe);
  if (k.t == CompletionKnowledge::kNever || k.t > post_ps) return false;
  if (e.qp.pe == pe && k.core >= 0 && k.core == core) return true;
  const auto b = std::lower_bound(m_barriers.begin(), m_barriers.end(), k.t);
  return b != m_barriers.end() && *b <= post_ps;
}

bool DstWriteRaceChecker::settled(const Landing& e) const {
  if (e.launch != m_launch) return true;
  if (m_barriers.empty()) return false;
  const Ps k = m_known.known_complete_ps(e.qp, e.wqe);
  return k != CompletionKnowledge::kNever && m_barriers.back() >= k;
}

void DstWriteRaceChecker::sweep_visit() {
  catch_up();
  const Ps now = sim_now_ps();
  for (int i = 0; i < 2 && !m_pool.empty(); ++i) {
    if (m_sweep >= m_pool.size()) m_sweep = 0;
    const Landing& e = m_pool[m_sweep];
    if (e.live && e.complete_ps + kKeepPs < now && settled(e)) forget(static_cast<uint32_t>(m_sweep));
    ++m_sweep;
  }
}

void DstWriteRaceChecker::judge_and_file(const WqeRecord& r, int dst_pe, uint64_t begin, uint64_t end,
                                         QpLast& cached) {
  // Who posted it, and when (the doorbell when the post was not seen).
  const int poster = m_known.executed_post().core;
  const Ps post_ps = m_known.executed_post().t;
  if (static_cast<size_t>(dst_pe) >= m_pages.size()) m_pages.resize(static_cast<size_t>(dst_pe) + 1);
  Page& pages = m_pages[static_cast<size_t>(dst_pe)];
  const auto order = [](const Landing& e) { return std::make_tuple(e.begin, e.end, e.qp.pe, e.qp.slot, e.qp.qp); };
  // Of the landings this one races with, the first in (range, QP) order is named.
  const Landing* race = nullptr;
  uint32_t same = UINT32_MAX;  // this QP's landing on the same range
  bool overlapped = false;     // by another QP's landing
  for (uint64_t page = first_page(begin), last = last_page(begin, end); page <= last; ++page)
    pages.for_each(page, [&](uint32_t id) {
      const Landing& e = m_pool[id];
      const bool mine = e.qp.pe == r.qp.pe && e.qp.slot == r.qp.slot && e.qp.qp == r.qp.qp;
      if (mine && e.begin == begin && e.end == end) same = id;
      if (mine || e.begin >= end || e.end <= begin) return;
      overlapped = true;
      if (ordered_after(e, r.qp.pe, poster, post_ps)) return;
      if (!race || order(e) < order(*race)) race = &e;
    });
  if (race) {
    const Landing& e = *race;
    Hazard h = m_ctx.at_wqe(kDstWriteRace, r.qp, r.wqe_index, r.fetch_ps);
    h.addr = m_ctx.addr(std::max(e.begin, begin));
    // Observed: both were in flight at once, so either could have landed last this run.
    h.observed = r.doorbell_ps < e.complete_ps && e.doorbell_ps < r.complete_ps;
    const std::string poster_text = poster >= 0 ? fmt::format("AIV core {} of PE {}", poster, r.qp.pe)
                                                : fmt::format("PE {}", r.qp.pe);
    const std::string edge = fmt::format(
        "{} posted WQE {} of QP {} without knowing WQE {} of QP {} (PE {}) complete: no reap of it by that core, "
        "and no device barrier after a reap of it, before the post",
        poster_text, r.wqe_index, r.qp.qp, e.wqe, e.qp.qp, e.qp.pe);
    const std::string both = fmt::format(
        "WQE {} of QP {} (PE {} -> PE {}) and WQE {} of QP {} (PE {} -> PE {}{}) both write {} bytes at {} on PE {}",
        r.wqe_index, r.qp.qp, r.qp.pe, r.qp.slot, e.wqe, e.qp.qp, e.qp.pe, e.qp.slot,
        at_site(m_ctx.sites.site_of(e.qp, e.wqe)), std::min(e.end, end) - std::max(e.begin, begin), h.addr, dst_pe);
    h.detail = h.observed
                   ? fmt::format("{}, and neither was posted after the other completed: both were in flight at once, "
                                 "so the final bytes depend on timing; {}",
                                 both, edge)
                   : fmt::format("{}; WQE {} of QP {} completed at {}, before WQE {} of QP {} was posted at {}, only "
                                 "by timing: {}",
                                 both, e.wqe, e.qp.qp, us_text(e.complete_ps), r.wqe_index, r.qp.qp, us_text(post_ps),
                                 edge);
    m_ctx.log.report(std::move(h));
  }
  const Landing landing{begin, end, r.qp, r.wqe_index, r.doorbell_ps, r.complete_ps, dst_pe, true, m_launch};
  uint32_t id = same;
  if (same != UINT32_MAX) {
    if (m_pool[same].launch != m_launch) ++m_live_this_launch;
    m_pool[same] = landing;
  } else {
    ++m_live;
    ++m_live_this_launch;
    if (!m_free.empty()) {
      id = m_free.back();
      m_free.pop_back();
      m_pool[id] = landing;
    } else {
      catch_up();  // the moves made so far were over the pool as it was
      id = static_cast<uint32_t>(m_pool.size());
      m_pool.push_back(landing);
    }
    for (uint64_t page = first_page(begin), last = last_page(begin, end); page <= last; ++page)
      pages.insert(page, id);
    ++m_epoch;
  }
  cached = overlapped ? QpLast{} : QpLast{m_epoch, id};
}

}  // namespace symsim
