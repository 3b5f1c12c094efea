// qp_multi_producer: a QP's head is a plain counter the producer reads and writes; upstream
// requires one producer per (PE, QP) ("one AIV per QP"). Two cores of one launch posting
// through the API, or both ringing its SQ doorbell, race on the head and the slots.
#include <fmt/format.h>

#include "sim/checkers/qp_multi_producer.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(QpMultiProducerChecker, "qp_multi_producer", 80, "two cores of one launch post to (or ring) the same QP", kQpMultiProducer);

void QpMultiProducerChecker::on_block_start(int pe, int, const char*, Ps) {
  if (static_cast<size_t>(pe) >= m_pes.size()) m_pes.resize(static_cast<size_t>(pe) + 1);
  PeLaunch& l = m_pes[static_cast<size_t>(pe)];
  if (l.running++ == 0) ++l.launch;  // a new launch on this PE
}

void QpMultiProducerChecker::on_block_end(int pe, int, const char*, Ps) { --m_pes[static_cast<size_t>(pe)].running; }

void QpMultiProducerChecker::producer(const QpRef& q, int core, uint32_t wqe, Ps t, SiteRef site, const char* how,
                                      Producers& p) {
  if (core < 0 || static_cast<size_t>(q.pe) >= m_pes.size()) return;
  const uint64_t launch = m_pes[static_cast<size_t>(q.pe)].launch;
  if (p.sole_core >= 0) p.cores[0].last_ps = std::max(p.cores[0].last_ps, p.sole_last_ps);
  if (p.launch != launch) p = {launch, -1, 0, {}};  // first produced on in this launch
  std::vector<Span>& spans = p.cores;
  Span* mine = nullptr;
  for (Span& s : spans)  // one producer per QP unless this hazard is there: a short list
    if (s.core == core) mine = &s;
  if (!mine) {
    spans.push_back({core, site, t, t});
    mine = &spans.back();
  }
  mine->last_ps = std::max(mine->last_ps, t);
  p.sole_core = spans.size() == 1 ? spans[0].core : -1;
  p.sole_last_ps = spans[0].last_ps;
  if (spans.size() < 2) return;
  // Report against the first producer (or, for the first, the second).
  const Span& other = spans[0].core == core ? spans[1] : spans[0];
  // Observed: the two spans overlap, so their head read-modify-writes could interleave.
  const bool observed = mine->first_ps <= other.last_ps && other.first_ps <= mine->last_ps;
  const int reporter = spans[0].core == core ? other.core : core;  // the second producer
  if (!m_reported.insert({qp_key(q), reporter, observed}).second) return;
  const Span& second = spans[0].core == core ? other : *mine;
  const Span& first = spans[0];
  Hazard h;
  h.id = kQpMultiProducer.name;
  h.pe = q.pe;
  h.core = second.core;
  h.slot = q.slot;
  h.qp = q.qp;
  h.time_ps = t;
  h.site = site_text(second.site);
  h.observed = observed;
  const std::string edge = fmt::format(
      "the SQ head is not reserved atomically, so slots and doorbells race (give each core its own QP, or reserve "
      "head ranges atomically and ring the doorbell from one core)");
  h.detail = observed
                 ? fmt::format("AIV core {} {} QP {} toward PE {} (producer index {}) while AIV core {}{} also produces "
                               "on it in this launch, at the same time: {}",
                               core, how, q.qp, q.slot, wqe, first.core == core ? second.core : first.core,
                               at_site(first.core == core ? second.site : first.site), edge)
                 : fmt::format("AIV core {} produces on QP {} toward PE {} (from {}) and AIV core {}{} also produces "
                               "on it in this launch (until {}); their posts did not overlap only by timing: {}",
                               second.core, q.qp, q.slot, us_text(second.first_ps), first.core, at_site(first.site),
                               us_text(first.last_ps), edge);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
