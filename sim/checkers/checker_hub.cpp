#include "sim/checkers/checker_hub.h"

#include "models/ascend/wqe_layout.h"
#include "sim/checkers/completion_errors.h"
#include "sim/checkers/core_write_race.h"
#include "sim/checkers/completion_knowledge.h"
#include "sim/checkers/cq_overflow.h"
#include "sim/checkers/cqe_error_unchecked.h"
#include "sim/checkers/dst_write_race.h"
#include "sim/checkers/event_id_unpaired.h"
#include "sim/checkers/flag_before_data.h"
#include "sim/checkers/gm_out_of_bounds.h"
#include "sim/checkers/pipe_sync_missing.h"
#include "sim/checkers/qp_multi_producer.h"
#include "sim/checkers/site_index.h"
#include "sim/checkers/src_reuse_before_completion.h"
#include "sim/checkers/torn_block_consumed.h"
#include "sim/checkers/torn_wqe.h"
#include "sim/checkers/ub_out_of_bounds.h"
#include "sim/checkers/unaligned_access.h"
#include "sim/checkers/unreaped_completions.h"
#include "sim/checkers/write_history.h"

namespace symsim {

namespace {
template <typename T>
void pick(T*& slot, Checker* c) {
  if (auto* p = dynamic_cast<T*>(c)) slot = p;
}
}  // namespace

CheckerSet::Hub::Hub(const CheckerContext& ctx, QpRecords& qps, SiteIndex* sites, WriteHistory* history,
                     CompletionKnowledge* completions, const std::vector<std::unique_ptr<Checker>>& checkers)
    : m_ctx(ctx), m_qps(qps), m_sites(sites), m_history(history), m_completions(completions) {
  for (const auto& c : checkers) {
    pick(m_torn_wqe, c.get());
    pick(m_cq_overflow, c.get());
    pick(m_completion_errors, c.get());
    pick(m_cqe_unchecked, c.get());
    pick(m_unreaped, c.get());
    pick(m_multi_producer, c.get());
    pick(m_src_reuse, c.get());
    pick(m_dst_race, c.get());
    pick(m_flag_before_data, c.get());
    pick(m_gm_bounds, c.get());
    pick(m_torn_block, c.get());
    pick(m_pipe_sync, c.get());
    pick(m_event_id, c.get());
    pick(m_ub_bounds, c.get());
    pick(m_unaligned, c.get());
    pick(m_core_race, c.get());
  }
  m_post_needs_record = m_sites || m_completions || m_multi_producer;
  m_bell_store_needs_record = m_sites || m_multi_producer;
  m_execution_needs_record = m_completions || m_unreaped || m_flag_before_data || m_src_reuse || m_dst_race;
}

bool CheckerSet::Hub::empty() const {
  return !m_sites && !m_history && !m_completions && !m_torn_wqe && !m_cq_overflow && !m_completion_errors &&
         !m_cqe_unchecked && !m_unreaped && !m_multi_producer && !m_src_reuse && !m_dst_race && !m_flag_before_data &&
         !m_gm_bounds && !m_torn_block && !m_pipe_sync && !m_event_id && !m_ub_bounds && !m_unaligned && !m_core_race;
}

__attribute__((noinline)) QpRecord& CheckerSet::Hub::look_up(const QpRef& q) {
  QpRecord& rec = m_qps[q];
  remember(q, &rec);
  return rec;
}

__attribute__((noinline)) QpRecord* CheckerSet::Hub::find_in_table(const QpRef& q) {
  QpRecord* rec = m_qps.find(q);
  if (rec) remember(q, rec);  // none: m_last stays
  return rec;
}

// Out of line: only when the completion record is off (its on_executed logs the CQE otherwise).
__attribute__((noinline)) void CheckerSet::Hub::log_cqe_for_unreaped(const WqeRecord& r, QpRecord& rec) {
  rec.completions.cqes.push(r.cqe_index, r.wqe_index, r.cqe_ps, false, true);
}

void CheckerSet::Hub::on_wqe_post(const PostRecord& p) {
  if (!m_post_needs_record) return;
  QpRecord& rec = qp(p.qp);
  if (m_sites) m_sites->on_post(p, rec.sites);
  if (m_completions) m_completions->on_post(p, rec.completions);
  if (m_multi_producer) m_multi_producer->on_post(p, rec.producers);
}

void CheckerSet::Hub::on_doorbell_store(const QpRef& q, bool cq, uint32_t value, int core, Ps t, SiteRef site) {
  if (cq) return;  // every listener keeps SQ doorbell stores only
  // (The write history's hang report reads the stores from the call-site index.)
  if (!m_bell_store_needs_record) return;
  QpRecord& rec = qp(q);
  if (m_sites) m_sites->on_bell_store(value, core, t, site, rec.sites);
  if (m_multi_producer) m_multi_producer->on_bell_store(q, value, core, t, site, rec.producers);
}

void CheckerSet::Hub::on_wqe_fetched(const QpRef& q, uint32_t wqe_index, const uint8_t* slot, uint32_t bytes, Ps t) {
  // torn_wqe's only (while copies into the PE's rings are pending); completion_errors reads an
  // error's WQE from its ring when it reports. With torn_wqe off the hub does not hear fetches.
  if (!m_torn_wqe) return unhandled();
  if (m_torn_wqe->copies_pending(q.pe)) m_torn_wqe->on_fetched(q, wqe_index, slot, bytes, t);
}

void CheckerSet::Hub::on_wqe_executed(const WqeRecord& r) {
  QpRecord* rec = m_execution_needs_record ? &qp_of_execution(r.qp) : nullptr;
  // Its CQE goes into the record's CQE log once, for the two rules that keep CQEs (cqe_log.h):
  // by the completion record, or here when that is off.
  if (m_completions) {
    m_completions->on_executed(r, rec->completions, m_unreaped != nullptr);
  } else if (m_unreaped && r.cqe_ps != 0) {
    log_cqe_for_unreaped(r, *rec);
  }
  if (m_history) m_history->on_executed(r);
  if (m_cq_overflow && m_cq_overflow->waiting()) m_cq_overflow->on_executed(r);
  const bool error = r.status != 0 || r.substatus != 0;  // an error CQE (or a flushed WQE)
  if (error) {
    if (m_completion_errors) m_completion_errors->on_executed(r);
    if (m_cqe_unchecked) m_cqe_unchecked->on_executed(r);
  }
  if (m_unreaped) m_unreaped->on_executed(r, rec->unreaped, rec->completions.cqes);  // (inline: its own test first)
  if (r.status != 0) return;  // the data rules judge only WQEs that moved bytes
  if (m_src_reuse) m_src_reuse->on_executed(r, rec->src_reuse, rec->completions, *rec);
  if (m_dst_race) m_dst_race->on_executed(r, rec->dst_race);
  if (m_flag_before_data) m_flag_before_data->on_executed(r, rec->flag_before_data);
  if (m_gm_bounds) m_gm_bounds->on_executed(r);
}

void CheckerSet::Hub::on_cqe_reaped(const QpRef& q, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) {
  if (m_completions) {
    QpRecord* rec = find(q);
    m_completions->on_reaped(cqe_index, core, t, rec ? &rec->completions : nullptr);
  }
  if (m_cqe_unchecked && m_cqe_unchecked->any_errors()) m_cqe_unchecked->on_reaped(q, cqe_index);
}

void CheckerSet::Hub::on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) {
  QpRecord* rec = m_unreaped ? &qp(q) : m_qps.find(q);  // unreaped_completions keeps every QP rung
  if (m_completions) m_completions->on_cq_consumed(consumer_index, t, rec);
  if (m_cqe_unchecked && m_cqe_unchecked->any_errors()) m_cqe_unchecked->on_cq_consumed(q, consumer_index, t);
  if (m_unreaped) m_unreaped->on_cq_consumed(consumer_index, *rec);
}

void CheckerSet::Hub::on_copy(const CopyRecord& c) {
  const CopyEnds at{m_ctx.where_in(c.src, c.src_region), m_ctx.where_in(c.dst, c.dst_region)};
  if (m_history) m_history->on_copy(c, at);
  if (m_torn_wqe) m_torn_wqe->on_copy(c, at);
  if (m_src_reuse) m_src_reuse->on_copy(c, at);
  if (m_torn_block) m_torn_block->on_copy(c, at);
  if (m_flag_before_data) m_flag_before_data->on_copy(c, at);
  if (m_pipe_sync) m_pipe_sync->on_copy(c, at);
  if (m_ub_bounds) m_ub_bounds->on_copy(c, at);
  if (m_gm_bounds) m_gm_bounds->on_copy(c, at);
  if (m_unaligned) m_unaligned->on_copy(c, at);
  if (m_core_race) m_core_race->on_copy(c, at);
}

void CheckerSet::Hub::on_pipe_sync(const PipeSyncRecord& s) {
  if (s.kind == PipeSyncRecord::kBarrier) {
    if (m_pipe_sync) m_pipe_sync->on_barrier(s);
    return;
  }
  if (!m_pipe_sync && !m_event_id) return;
  std::vector<PendingFlag>& pending = (*m_ctx.pending_flags)[{s.pe, s.core}];
  PendingFlag* set = find_pending(pending, s);  // the event's SetFlag not yet waited (null: none)
  if (s.kind == PipeSyncRecord::kSetFlag) {
    if (m_event_id) m_event_id->on_set_flag(s, set);
    if (set) {
      set->site = s.site;  // the new SetFlag replaces the pending one
    } else {
      pending.push_back({s.src_pipe, s.dst_pipe, s.event_id, 0, s.site});
      set = &pending.back();
    }
    if (m_pipe_sync) m_pipe_sync->on_set_flag(s, *set);
    return;
  }
  if (m_pipe_sync && s.matched && set) m_pipe_sync->on_wait_flag(s, *set);
  if (m_event_id) m_event_id->on_wait_flag(s);
  if (s.matched && set) {  // consumed (the last one, nearly always: a WaitFlag follows its SetFlag)
    if (set != &pending.back()) *set = pending.back();
    pending.pop_back();
  }
}

void CheckerSet::Hub::on_block_start(int pe, int core, const char*, Ps) {
  if (m_pipe_sync || m_event_id) (*m_ctx.pending_flags)[{pe, core}].clear();
}

}  // namespace symsim
