#include "checkers/completion_knowledge.h"

#include <algorithm>

#include "models/ascend/ring.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

void CompletionKnowledge::on_wqe_executed(const WqeRecord& r) {
  if (r.cqe_ps == 0) return;
  QpState& s = m_qps[r.qp];
  s.cqes.emplace_back(r.cqe_index, r.wqe_index);
  if (s.cqes.size() > kKeep) s.cqes.pop_front();
  if (const UdmaQp* q = m_ctx.engine_qp(r.qp); q && q->cq_base && q->cq_depth) {
    const uint64_t slot =
        reinterpret_cast<uint64_t>(q->cq_base) + uint64_t{udma::ring_slot(r.cqe_index, q->cq_depth)} * udma::kCqeBytes;
    m_slots[slot] = {r.qp, r.wqe_index, r.cqe_ps};
  }
}

void CompletionKnowledge::reap(QpState& s, const QpRef&, uint32_t upto, Ps t) {
  if (!s.reaps.empty() && s.reaps.back().upto >= upto) return;  // knew it already
  s.reaps.push_back({t, upto});
  if (s.reaps.size() > kKeep) {
    s.reaps.pop_front();
    s.trimmed = true;
  }
}

void CompletionKnowledge::on_cqe_reaped(const QpRef& q, uint32_t cqe_index, Ps t) {
  QpState* s = m_qps.find(q);
  if (!s) return;
  bool any = false;
  uint32_t upto = 0;
  while (!s->cqes.empty() && s->cqes.front().first <= cqe_index) {
    upto = s->cqes.front().second;
    any = true;
    s->cqes.pop_front();
  }
  if (any) reap(*s, q, upto, t);
}

void CompletionKnowledge::on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) {
  QpState* s = m_qps.find(q);
  if (!s) return;
  // The doorbell carries the low 24 bits of the consumer index: every CQE before it was consumed.
  bool any = false;
  uint32_t upto = 0;
  while (!s->cqes.empty()) {
    const uint32_t behind = (consumer_index - s->cqes.front().first) & 0xFFFFFFu;
    if (behind == 0 || behind >= 0x800000u) break;
    upto = s->cqes.front().second;
    any = true;
    s->cqes.pop_front();
  }
  if (any) reap(*s, q, upto, t);
}

void CompletionKnowledge::on_gm_observe(int pe, const uint8_t* addr, uint64_t, Ps t) {
  if (m_slots.empty() || !m_ctx.in_queue_ring(addr)) return;
  const uint64_t slot = reinterpret_cast<uint64_t>(addr) & ~uint64_t{udma::kCqeBytes - 1};
  const auto it = m_slots.find(slot);
  if (it == m_slots.end() || it->second.qp.pe != pe || it->second.cqe_ps > t) return;
  QpState* s = m_qps.find(it->second.qp);
  if (s) reap(*s, it->second.qp, it->second.wqe, t);
}

Ps CompletionKnowledge::known_complete_ps(const QpRef& q, uint32_t wqe) const {
  const QpState* s = m_qps.find(q);
  if (!s || s->reaps.empty()) return kNever;
  const auto it =
      std::lower_bound(s->reaps.begin(), s->reaps.end(), wqe, [](const Reap& x, uint32_t w) { return x.upto < w; });
  if (it == s->reaps.end()) return kNever;
  if (it == s->reaps.begin() && s->trimmed) return 0;
  return it->t;
}

}  // namespace symsim
