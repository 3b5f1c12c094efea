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

void CompletionKnowledge::reap(QpState& s, uint32_t upto, Ps t, int core) {
  if (!s.reaps.empty() && s.reaps.back().upto >= upto) return;  // knew it already
  s.reaps.push_back({t, upto, core});
  if (s.reaps.size() > kKeep) {
    s.reaps.pop_front();
    s.trimmed = true;
  }
}

void CompletionKnowledge::on_cqe_reaped(const QpRef& q, uint32_t cqe_index, Ps t, int core) {
  QpState* s = m_qps.find(q);
  if (!s) return;
  bool any = false;
  uint32_t upto = 0;
  while (!s->cqes.empty() && s->cqes.front().first <= cqe_index) {
    upto = s->cqes.front().second;
    any = true;
    s->cqes.pop_front();
  }
  if (any) reap(*s, upto, t, core);
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
  if (any) reap(*s, upto, t, -1);
}

void CompletionKnowledge::on_gm_observe(int pe, const uint8_t* addr, uint64_t, Ps t, int core) {
  if (m_slots.empty() || !m_ctx.in_queue_ring(addr)) return;
  const uint64_t slot = reinterpret_cast<uint64_t>(addr) & ~uint64_t{udma::kCqeBytes - 1};
  const auto it = m_slots.find(slot);
  if (it == m_slots.end() || it->second.qp.pe != pe || it->second.cqe_ps > t) return;
  QpState* s = m_qps.find(it->second.qp);
  if (s) reap(*s, it->second.wqe, t, core);
}

CompletionKnowledge::Known CompletionKnowledge::known(const QpRef& q, uint32_t wqe) const {
  const QpState* s = m_qps.find(q);
  if (!s || s->reaps.empty()) return {kNever, -1};
  const auto it =
      std::lower_bound(s->reaps.begin(), s->reaps.end(), wqe, [](const Reap& x, uint32_t w) { return x.upto < w; });
  if (it == s->reaps.end()) return {kNever, -1};
  if (it == s->reaps.begin() && s->trimmed) return {0, -1};
  return {it->t, it->core};
}

}  // namespace symsim
