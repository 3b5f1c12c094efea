// torn_block_consumed: a Data-as-Flag receiver trusts that a 512 B unit lands at once; when a
// unit lands in parts (the torn_block fault), a reader that sees the landed part (the flag)
// and then reads the part still in flight consumes a block that is only partly there.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim/checkers/torn_block_consumed.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(TornBlockConsumedChecker, "torn_block_consumed", 110, "a reader consumed a unit whose parts had not all landed", kTornBlockConsumed);

namespace {
bool overlaps(const uint8_t* a, uint64_t an, const uint8_t* b, uint64_t bn) { return a < b + bn && b < a + an; }
}  // namespace

void TornBlockConsumedChecker::on_fault(const FaultEvent& f) {
  if (std::strcmp(f.kind, "torn_block") != 0) return;
  const Ps now = sim_now_ps();
  m_torn.erase(std::remove_if(m_torn.begin(), m_torn.end(), [&](const Torn& t) { return t.f.late_ps < now; }),
               m_torn.end());
  m_torn.push_back({f, {}, false});
}

void TornBlockConsumedChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (!at.src.unified_buffer) read(c.pe, c.core, c.src, c.bytes, c.issue_ps, c.site);
}

void TornBlockConsumedChecker::on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t,
                                             SiteRef site) {
  read(pe, core, addr, bytes, t, site);
}

void TornBlockConsumedChecker::read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) {
  for (Torn& u : m_torn) {
    const FaultEvent& f = u.f;
    if (t < f.t || t >= f.late_ps || !overlaps(addr, bytes, f.addr, f.bytes)) continue;
    const bool late = overlaps(addr, bytes, f.late_addr, f.late_bytes);
    // Landed part: the unit minus the late part (one or two pieces).
    const bool early = overlaps(addr, bytes, f.addr, f.late_addr - f.addr) ||
                       overlaps(addr, bytes, f.late_addr + f.late_bytes, f.addr + f.bytes - (f.late_addr + f.late_bytes));
    if (!late) {
      if (early) u.saw_early.insert({pe, core});
      continue;
    }
    if (!early && !u.saw_early.count({pe, core})) continue;  // still waiting on the old flag
    if (u.reported) continue;
    u.reported = true;
    report(u, pe, core, t, site);
  }
}

void TornBlockConsumedChecker::report(const Torn& u, int pe, int core, Ps t, SiteRef site) {
  const FaultEvent& f = u.f;
  Hazard h;
  h.id = kTornBlockConsumed.name;
  h.pe = pe;
  h.core = core;
  h.addr = m_ctx.addr(f.addr);
  h.time_ps = t;
  h.site = site_text(site);
  h.detail = fmt::format(
      "AIV core {} of PE {} read bytes {}..{} of the {} B unit at {} at {}, after reading its landed part, but "
      "those bytes land only at {} (the unit from PE {} QP {} WQE {} arrived in parts): the block was consumed "
      "torn. A flag inside the data block is only safe where the fabric makes the block visible at once; "
      "publish with put_signal (the signal lands after all the data) instead",
      core, pe, f.late_addr - f.addr, f.late_addr - f.addr + f.late_bytes - 1, f.bytes, h.addr, us_text(t),
      us_text(f.late_ps), f.qp.pe, f.qp.qp, f.wqe);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
