// flag_before_data: a reader saw a flag that its sender posted after some data, then read
// that data while it was still in flight: the flag overtook the data it publishes (nothing
// ordered them: a different QP, relaxed ordering, a reordering fault). The report anchors on
// the data WQE, whose sender must order the flag after it (quiet, fence/SO, put_signal).
#include <fmt/format.h>

#include <algorithm>

#include "checkers/checkers.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

void FlagBeforeDataChecker::on_wqe_executed(const WqeRecord& r) {
  if (r.status != 0) return;
  if (r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify)
    m_landings.add(r.remote_va, r.remote_va + r.bytes, r);
  else if (r.opcode == udma::kRead)
    m_landings.add(r.local_va, r.local_va + r.bytes, r);
}

void FlagBeforeDataChecker::on_copy(const CopyRecord& c) {
  if (!m_ctx.in_unified_buffer(c.src)) read(c.pe, c.core, c.src, c.bytes, c.issue_ps, c.site);
}

void FlagBeforeDataChecker::on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) {
  read(pe, core, addr, bytes, t, site);
}

void FlagBeforeDataChecker::read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) {
  const auto begin = reinterpret_cast<uint64_t>(addr);
  std::vector<Observed>& seen = m_observed[{pe, core}];
  m_landings.overlapping(begin, begin + bytes, [&](size_t id, const WqeRecord& data) {
    if (data.remote_write_ps <= t) {  // landed: the core has seen this write
      const auto it = std::find_if(seen.begin(), seen.end(), [&](const Observed& o) { return o.landing == id; });
      if (it == seen.end()) {
        seen.push_back({id, t, site});
        if (seen.size() > 32) seen.erase(seen.begin());
      }
      return;
    }
    for (const Observed& o : seen) {
      const WqeRecord* flag = m_landings.get(o.landing);
      if (!flag || flag->qp.pe != data.qp.pe || flag->doorbell_ps <= data.doorbell_ps || o.t > t) continue;
      Hazard h = m_ctx.at_wqe("flag_before_data", data.qp, data.wqe_index, t);
      h.addr = m_ctx.addr(addr);
      h.detail = fmt::format(
          "AIV core {} of PE {} saw the flag written by WQE {} (posted{} after this data) at {}{}, then read this "
          "data{} at {} while it was still in flight (it lands at {}): the flag overtook the data it publishes. "
          "Order the flag after the data: quiet before posting it, a fence or SO ordering, or put_signal",
          core, pe, flag->wqe_index, at_site(m_ctx.sites.site_of(flag->qp, flag->wqe_index)), us_text(o.t),
          at_site(o.site), at_site(site), us_text(t), us_text(data.remote_write_ps));
      m_ctx.log.report(std::move(h));
      return;
    }
  });
}

}  // namespace symsim
