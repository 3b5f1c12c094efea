// qp_multi_producer: a QP's head is a plain counter the producer reads and writes; upstream
// requires one producer per (PE, QP) ("one AIV per QP"). Two cores of one launch posting
// through the API, or both ringing its SQ doorbell, race on the head and the slots.
#include <fmt/format.h>

#include "checkers/checkers.h"

namespace symsim {

void QpMultiProducerChecker::on_block_start(int pe, int, const char*, Ps) {
  if (static_cast<size_t>(pe) >= m_pes.size()) m_pes.resize(static_cast<size_t>(pe) + 1);
  PeLaunch& l = m_pes[static_cast<size_t>(pe)];
  if (l.running++ == 0) l.first = QpTable<First>{};  // a new launch on this PE
}

void QpMultiProducerChecker::on_block_end(int pe, int, const char*, Ps) { --m_pes[static_cast<size_t>(pe)].running; }

void QpMultiProducerChecker::on_wqe_post(const PostRecord& p) { producer(p.qp, p.core, p.wqe_index, p.t, p.site, "posted"); }

void QpMultiProducerChecker::on_doorbell_store(const QpRef& q, bool cq, uint32_t value, int core, Ps t, SiteRef site) {
  if (!cq) producer(q, core, value, t, site, "rang the SQ doorbell of");
}

void QpMultiProducerChecker::producer(const QpRef& q, int core, uint32_t wqe, Ps t, SiteRef site, const char* how) {
  if (core < 0 || static_cast<size_t>(q.pe) >= m_pes.size()) return;
  QpTable<First>& firsts = m_pes[static_cast<size_t>(q.pe)].first;
  First* known = firsts.find(q);
  if (!known) {
    firsts[q] = First{core, site};
    return;
  }
  if (known->core == core) return;
  if (!m_reported.insert({qp_key(q), core}).second) return;
  Hazard h;
  h.id = "qp_multi_producer";
  h.pe = q.pe;
  h.core = core;
  h.slot = q.slot;
  h.qp = q.qp;
  h.time_ps = t;
  h.site = site_text(site);
  h.detail = fmt::format(
      "AIV core {} {} QP {} toward PE {} (producer index {}) while AIV core {}{} also produces on it in this launch: "
      "the SQ head is not reserved atomically, so slots and doorbells race (give each core its own QP, or reserve "
      "head ranges atomically and ring the doorbell from one core)",
      core, how, q.qp, q.slot, wqe, known->core, at_site(known->site));
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
