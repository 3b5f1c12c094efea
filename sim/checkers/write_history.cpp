#include "sim/checkers/write_history.h"

#include <fmt/format.h>

#include "sim/checkers/checker.h"
#include "sim/checkers/qp_record.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

std::string WriteHistory::who(const Write& w, bool cqe) const {
  if (w.kind == Write::kCopy) return fmt::format("AIV core {} of PE {} (copy{})", w.copy.core, w.copy.pe, at_site(w.site()));
  const QpRef q = w.qp();
  if (cqe) return fmt::format("the UDMA engine of PE {} (CQE {} for WQE {})", q.pe, w.wqe.cqe, w.wqe.wqe);
  return fmt::format("PE {} QP {} (to PE {}) WQE {} ({}{})", q.pe, q.qp, q.slot, w.wqe.wqe, opcode_text(w.opcode),
                     at_site(m_ctx.sites.site_of(q, w.wqe.wqe)));
}

std::pair<uint64_t, uint64_t> WriteHistory::cqe_range(const Write& w) const {
  const UdmaQp* u = m_ctx.engine_qp(w.qp());
  if (!u) return {0, 0};
  const auto cqe = reinterpret_cast<uint64_t>(u->cq_base) + uint64_t{w.wqe.cqe % u->cq_depth} * udma::kCqeBytes;
  return {cqe, cqe + udma::kCqeBytes};
}

void WriteHistory::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (at.dst.unified_buffer) return;
  SiteIndex::check_pc_only(c.site);
  Write& w = add();
  w.begin = reinterpret_cast<uint64_t>(c.dst);
  w.t = c.visible_ps;
  w.kind = Write::kCopy;
  w.copy = {w.begin + c.bytes, c.site.pc, c.core, c.pe};
}

void WriteHistory::on_fault(const FaultEvent& f) {
  m_faults.push_back(f);
  if (m_faults.size() > 1024) m_faults.pop_front();
}

std::string WriteHistory::last_writer(const void* addr, uint64_t bytes, Ps t) const {
  const auto a = reinterpret_cast<uint64_t>(addr);
  const auto overlaps = [&](uint64_t begin, uint64_t end, Ps written) {
    return begin < a + bytes && a < end && written <= t;
  };
  // Newest first; a WQE's CQE was written after its data.
  const uint64_t kept = m_added < kKept ? m_added : kKept;
  for (uint64_t n = 0; n < kept; ++n) {
    const Write& w = m_writes[(m_added - 1 - n) % kKept];
    if (w.kind == Write::kWqe && w.wqe.cqe_ps != 0) {
      const auto [begin, end] = cqe_range(w);
      if (overlaps(begin, end, w.wqe.cqe_ps)) return fmt::format("{} at {}", who(w, true), us_text(w.wqe.cqe_ps));
    }
    if (overlaps(w.begin, w.end(), w.t))  // a WQE without data: [0, 0), which overlaps nothing
      return fmt::format("{} at {}", who(w, false), us_text(w.t));
  }
  return "";
}

std::string WriteHistory::faults_on(const QpRef& q) const {
  std::string out;
  for (const FaultEvent& f : m_faults)
    if (f.qp.pe == q.pe && f.qp.slot == q.slot && f.qp.qp == q.qp)
      out += fmt::format("{}{} at {}{}", out.empty() ? "" : "; ", f.kind, us_text(f.t),
                         f.detail.empty() ? "" : " (" + f.detail + ")");
  return out;
}

std::string WriteHistory::doorbells(const QpRef& q) const {
  const UdmaQp* engine = m_ctx.engine_qp(q);
  const UdmaQp* seen = engine && engine->sq_rung_ps != UdmaQp::kNeverRung ? engine : nullptr;
  const std::optional<SiteIndex::StoredDoorbell> stored = m_ctx.sites.last_doorbell(q);
  if (!seen && !stored) return "no SQ doorbell was rung";
  std::string out = stored ? fmt::format("last SQ doorbell stored: producer index {} at {}{}", stored->value,
                                         us_text(stored->t), at_site(stored->site))
                           : "no SQ doorbell stored by a kernel";
  out += seen ? fmt::format("; the engine last acted on producer index {} at {}", seen->sq_rung_value, us_text(seen->sq_rung_ps))
              : "; the engine never received a doorbell";
  return out;
}

}  // namespace symsim
