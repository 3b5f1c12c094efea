#include "sim/checkers/completion_knowledge.h"

#include <algorithm>

#include "models/ascend/ring.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"
#include "sim/checkers/qp_record.h"

namespace symsim {

void CompletionKnowledge::first_cqe(const WqeRecord& r, QpState& s) {
  s.cqes.open(r.cqe_index);
  const UdmaQp* q = m_ctx.engine_qp(r.qp);
  s.ring_pe = r.qp.pe;
  if (q && q->cq_base && q->cq_depth) {
    s.cq_depth = q->cq_depth;
    m_cq_rings.add(reinterpret_cast<uintptr_t>(q->cq_base), uint64_t{q->cq_depth} * udma::kCqeBytes, &s);
  }
}

void CompletionKnowledge::on_cq_consumed(uint32_t consumer_index, Ps t, QpRecord* rec) {
  if (!rec) return;
  QpState* s = &rec->completions;
  // The doorbell carries the low 24 bits of the consumer index: every CQE before it was consumed.
  bool any = false;
  uint32_t upto = 0;
  while (!s->cqes.empty(CqeLog::kKnown)) {
    const uint32_t behind = (consumer_index - s->cqes.front_cqe(CqeLog::kKnown)) & 0xFFFFFFu;
    if (behind == 0 || behind >= 0x800000u) break;
    upto = s->cqes.front_wqe(CqeLog::kKnown);
    any = true;
    s->cqes.pop_front(CqeLog::kKnown);
  }
  if (any) reap(*s, upto, t, -1);
}

void CompletionKnowledge::on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t, Ps t, SiteRef) {
  if (m_cq_rings.empty()) return;
  const auto a = reinterpret_cast<uintptr_t>(addr);
  // The ring holding `a` (its extent is the owner's cq_depth CQEs, so the offset is inside it).
  const auto* ring = m_cq_rings.find(a);
  if (!ring) return;
  QpState& s = *ring->owner;
  const uintptr_t offset = a - ring->base;
  if (s.ring_pe != pe || s.cqes.empty(CqeLog::kKnown)) return;
  // The CQE written last into this slot. Not pending any more: it was reaped (the reap covered
  // it), so reading it tells nothing new.
  const auto slot = static_cast<uint32_t>(offset / udma::kCqeBytes);
  const uint32_t newest = s.cqes.back().cqe;  // this reader's newest too (it is not empty)
  const uint32_t latest = newest - (newest - slot) % s.cq_depth;
  const uint32_t at = latest - s.cqes.front_cqe(CqeLog::kKnown);
  if (at >= s.cqes.size(CqeLog::kKnown)) return;
  const Cqe c = s.cqes.get(CqeLog::kKnown, at);
  if (c.cqe != latest || c.cqe_ps > t) return;
  reap(s, c.wqe, t, core);
}

CompletionKnowledge::Known CompletionKnowledge::known(const QpRef& q, uint32_t wqe) const {
  const QpRecord* rec = m_qps.find(q);
  return rec ? known(*rec, wqe) : Known{kNever, -1};
}

CompletionKnowledge::Known CompletionKnowledge::known(const QpRecord& rec, uint32_t wqe) const {
  return known(rec.completions, wqe);
}

}  // namespace symsim
