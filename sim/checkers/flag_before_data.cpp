// flag_before_data: a reader saw a flag that its sender posted after some data, then read that
// data, and nothing in the ordering rules put the data before the flag (see
// flag_before_data.h). Reported whether or not the data happened to land first; `observed`
// says whether the stale read actually happened. The report anchors on the data WQE, whose
// sender must order the flag after it (quiet, fence/SO, put_signal).
#include "sim/checkers/flag_before_data.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/ascend/udma_ordering.h"
#include "models/ascend/wqe_layout.h"
#include "sim/checkers/qp_record.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(FlagBeforeDataChecker, "flag_before_data", 120, "a reader saw a flag its sender posted after some data, then read that data unordered", kFlagBeforeData);

uint64_t FlagBeforeDataChecker::key(const QpRef& q) {
  return uint64_t{static_cast<uint32_t>(q.pe)} << 40 | uint64_t{static_cast<uint32_t>(q.slot + 1) & 0xFFFFFu} << 20 |
         (static_cast<uint32_t>(q.qp) & 0xFFFFFu);
}

void FlagBeforeDataChecker::on_device_barrier(Ps) { m_readers = {}; }

void FlagBeforeDataChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (!at.src.unified_buffer) read(c.pe, c.core, c.src, c.bytes, c.issue_ps, c.site);
}

void FlagBeforeDataChecker::on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) {
  read(pe, core, addr, bytes, t, site);
}

void FlagBeforeDataChecker::read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) {
  const auto begin = reinterpret_cast<uint64_t>(addr);
  const uint64_t end = begin + bytes;
  Reader& rd = m_readers[{pe, core}];
  m_hits.clear();
  m_landings.overlapping(begin, end, [&](size_t id, const Landing& x) { m_hits.emplace_back(id, &x); });
  for (const auto& hit : m_hits) {
    const size_t x_id = hit.first;
    const Landing* x = hit.second;
    // A later write of the same bytes supersedes this one: a flag posted after it publishes
    // that write, not this one.
    const uint64_t lo = std::max(begin, x->begin()), hi = std::min(end, x->end());
    const bool superseded = std::any_of(m_hits.begin(), m_hits.end(), [&](const auto& y) {
      return y.first > x_id && y.second->begin() <= lo && y.second->end() >= hi;
    });
    const bool seen_before = x->seen_pe == pe && x->seen_core == core;
    if (!seen_before && !superseded) judge(pe, core, rd, *x, addr, t, site);
    if (x->r.remote_write_ps <= t) {  // landed: the core has now seen this write
      x->seen_pe = pe;
      x->seen_core = core;
      if (x->r.bytes <= kMaxFlagBytes) saw(rd, *x, t, site);
    }
  }
}

void FlagBeforeDataChecker::saw(Reader& rd, const Landing& flag, Ps t, SiteRef site) {
  SeenOnQp& q = rd.by_qp[key(flag.r.qp)];
  if (!q.any || flag.r.wqe_index > q.max_index) q.max_index = flag.r.wqe_index;
  if (flag.has_order && (!q.ordered || flag.ordered_below > q.ordered_below)) {
    q.ordered = true;
    q.ordered_below = flag.ordered_below;
  }
  q.any = true;
  SeenFromPe& p = rd.by_pe[flag.r.qp.pe];
  if (!p.any || flag.post_ps > p.max_post_ps) {
    p.any = true;
    p.max_post_ps = flag.post_ps;
    p.flag = flag.r;
    p.seen_ps = t;
    p.seen_site = site;
  }
}

void FlagBeforeDataChecker::judge(int pe, int core, Reader& rd, const Landing& data, const uint8_t* addr, Ps t,
                                  SiteRef site) {
  const auto from = rd.by_pe.find(data.r.qp.pe);
  if (from == rd.by_pe.end()) return;
  const SeenFromPe& f = from->second;
  const auto on_qp = rd.by_qp.find(key(data.r.qp));
  const SeenOnQp* q = on_qp == rd.by_qp.end() ? nullptr : &on_qp->second;
  // Published: the reader saw something its sender posted after this data.
  const bool later_on_qp = q && q->max_index > data.r.wqe_index;
  if (f.max_post_ps <= data.post_ps && !later_on_qp) return;
  // Ordered before some flag the reader saw?
  if (q && q->ordered && data.r.wqe_index < q->ordered_below) return;
  if (m_known.known_complete_ps(data.r.qp, data.r.wqe_index) <= f.max_post_ps) return;

  const Landing::Wqe& flag = f.flag;
  const bool same_qp = key(flag.qp) == key(data.r.qp);
  const std::string edge =
      same_qp ? fmt::format("no quiet or fence between WQE {} and WQE {} on QP {} (slot {}), and WQE {} is not SO",
                            data.r.wqe_index, flag.wqe_index, flag.qp.qp, flag.qp.slot, flag.wqe_index)
              : fmt::format("no quiet between WQE {} on QP {} (slot {}) and WQE {} on QP {} (slot {}): different QPs "
                            "are not ordered, and PE {} reaped no completion of WQE {} before posting WQE {}",
                            data.r.wqe_index, data.r.qp.qp, data.r.qp.slot, flag.wqe_index, flag.qp.qp, flag.qp.slot,
                            data.r.qp.pe, data.r.wqe_index, flag.wqe_index);
  const bool observed = data.r.remote_write_ps > t;
  Hazard h = m_ctx.at_wqe(kFlagBeforeData, data.r.qp, data.r.wqe_index, t);
  h.addr = m_ctx.addr(addr);
  h.core = core;
  h.observed = observed;
  const std::string saw_text =
      fmt::format("AIV core {} of PE {} saw the flag written by WQE {} (posted{} after this data) at {}{}, then read "
                  "this data{} at {}",
                  core, pe, flag.wqe_index, at_site(m_ctx.sites.site_of(flag.qp, flag.wqe_index)), us_text(f.seen_ps),
                  at_site(f.seen_site), at_site(site), us_text(t));
  if (observed) {
    h.detail = fmt::format("{} while it was still in flight (it lands at {}): the flag overtook the data it publishes; "
                           "{}. Order the flag after the data: quiet before posting it, a fence or SO ordering, or "
                           "put_signal",
                           saw_text, us_text(data.r.remote_write_ps), edge);
  } else {
    h.detail = fmt::format("{}; the data had landed (at {}) only by timing: nothing orders it before the flag: {}. "
                           "Order the flag after the data: quiet before posting it, a fence or SO ordering, or "
                           "put_signal",
                           saw_text, us_text(data.r.remote_write_ps), edge);
  }
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
