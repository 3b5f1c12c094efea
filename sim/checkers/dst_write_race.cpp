// dst_write_race: two WQEs of different QPs (or PEs) land on overlapping bytes and neither
// was posted after the other completed: nothing orders them, so which bytes win depends on
// timing (multi-QP gives no cross-QP order; give each QP its own slice).
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "checkers/checkers.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

namespace {
// A landing is kept this long after it completed. Only one that completed after a WQE's
// doorbell can race with it, and a doorbell is at most one HBM latency before now, so a
// landing forgotten any time after this cannot change a report.
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
  m_free.push_back(id);
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
  if (static_cast<size_t>(dst_pe) >= m_pages.size()) m_pages.resize(static_cast<size_t>(dst_pe) + 1);
  Page& pages = m_pages[static_cast<size_t>(dst_pe)];
  const auto order = [](const Landing& e) { return std::make_tuple(e.begin, e.end, e.qp.pe, e.qp.slot, e.qp.qp); };
  // Of the landings this one races with, the first in (range, QP) order is named.
  const Landing* race = nullptr;
  uint32_t same = UINT32_MAX;  // this QP's landing on the same range
  for (uint64_t page = first_page(begin), last = last_page(begin, end); page <= last; ++page)
    pages.for_each(page, [&](uint32_t id) {
      const Landing& e = m_pool[id];
      const bool mine = e.qp.pe == r.qp.pe && e.qp.slot == r.qp.slot && e.qp.qp == r.qp.qp;
      if (mine && e.begin == begin && e.end == end) same = id;
      if (mine || e.begin >= end || e.end <= begin) return;
      if (r.doorbell_ps >= e.complete_ps || e.doorbell_ps >= r.complete_ps) return;
      if (!race || order(e) < order(*race)) race = &e;
    });
  if (race) {
    const Landing& e = *race;
    Hazard h = m_ctx.at_wqe("dst_write_race", r.qp, r.wqe_index, r.fetch_ps);
    h.addr = m_ctx.addr(std::max(e.begin, begin));
    h.detail = fmt::format(
        "WQE {} of QP {} (PE {} -> PE {}) and WQE {} of QP {} (PE {} -> PE {}{}) both write {} bytes at {} on PE {}, "
        "and neither was posted after the other completed: the final bytes depend on timing",
        r.wqe_index, r.qp.qp, r.qp.pe, r.qp.slot, e.wqe, e.qp.qp, e.qp.pe, e.qp.slot,
        at_site(m_ctx.sites.site_of(e.qp, e.wqe)), std::min(e.end, end) - std::max(e.begin, begin), h.addr, dst_pe);
    m_ctx.log.report(std::move(h));
  }
  const Landing landing{begin, end, r.qp, r.wqe_index, r.doorbell_ps, r.complete_ps, dst_pe, true};
  if (same != UINT32_MAX) {
    m_pool[same] = landing;
  } else {
    uint32_t id;
    if (!m_free.empty()) {
      id = m_free.back();
      m_free.pop_back();
      m_pool[id] = landing;
    } else {
      id = static_cast<uint32_t>(m_pool.size());
      m_pool.push_back(landing);
    }
    for (uint64_t page = first_page(begin), last = last_page(begin, end); page <= last; ++page)
      pages.insert(page, id);
  }
  // Forget writes long complete: two pool entries per WQE, round robin.
  const Ps now = sim_now_ps();
  for (int i = 0; i < 2 && !m_pool.empty(); ++i) {
    if (m_sweep >= m_pool.size()) m_sweep = 0;
    const Landing& e = m_pool[m_sweep];
    if (e.live && e.complete_ps + kKeepPs < now) forget(static_cast<uint32_t>(m_sweep));
    ++m_sweep;
  }
}

}  // namespace symsim
