// What a PE knows about its own WQEs' posts and completions, shared by the checkers that judge by
// happens-before (flag_before_data, src_reuse_before_completion, dst_write_race): one record per
// QP, fed once per event. A WQE is known complete from the first time its PE reaped a CQE
// covering it (CQEs of a QP are written in order, so a CQE covers every earlier WQE of its QP),
// through the SHMEM API (quiet, a poll), a CQ doorbell past it, or a direct-drive kernel's read
// of a landed CQE slot. It is attached to the hooks before those checkers, so during their hook
// it already holds the event (`executed_post()` is the post of the WQE being executed).
// Per QP, posts not yet executed, CQEs not yet reaped and the reaps sit in power-of-two rings
// that leave from the front (pruned when the WQE executes or the CQE is reaped): O(1) amortised
// per event, nothing allocated per WQE once warm, and a binary search per completion query.
#pragma once
#include <cstdint>
#include <map>

#include "sim/checkers/checker_context.h"
#include "sim/checkers/cq_ring_index.h"
#include "sim/checkers/cqe_log.h"
#include "sim/checkers/ring_fifo.h"
#include "models/ascend/ascend_observer.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

class CompletionKnowledge : public AscendObserver {
 public:
  static constexpr Ps kNever = ~Ps{0};
  explicit CompletionKnowledge(CheckerContext& ctx) : m_ctx(ctx), m_qps(*ctx.qps) {}

  // `rec` is the record of the event's QP (qp_record.h; null: none yet), `mine` its part of it
  // (the post and the reap are inline: one each per WQE, mostly a push).
  struct QpState;
  void on_post(const PostRecord& p, QpState& mine);
  // Writes the WQE's CQE into the record's CQE log, for unreaped_completions too when
  // `unreaped` (its rule is on).
  void on_executed(const WqeRecord& r, QpRecord& rec, bool unreaped);
  void on_reaped(uint32_t cqe_index, int core, Ps t, QpState* mine);
  void on_cq_consumed(uint32_t consumer_index, Ps t, QpRecord* rec);
  // A core of `pe` read [addr, addr + bytes) at `t` (a poll of a CQE slot counts as a reap).
  void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) override;

  // The post of the WQE now executing (valid inside on_wqe_executed): the core that posted it
  // and when. `seen` false when its post was not seen (then core -1 and the doorbell time).
  struct Post {
    uint32_t wqe = 0;
    int core = -1;
    Ps t = 0;
    bool seen = false;
  };
  const Post& executed_post() const { return m_executed_post; }

  // When WQE `wqe` of `q` became known complete to its PE; kNever when not (yet). A record too
  // old to keep counts as known at time 0 (no report without proof).
  Ps known_complete_ps(const QpRef& q, uint32_t wqe) const { return known(q, wqe).t; }
  struct Known {
    Ps t;
    int core;  // the core that reaped it (-1: the host, a CQ doorbell, or unknown)
  };
  Known known(const QpRef& q, uint32_t wqe) const;
  Known known(const QpRecord& rec, uint32_t wqe) const;  // rec: the QP's record (no lookup)
  // The same from the record's part (inline: a put asks on every WQE, and mostly the answer is
  // "not yet", read from the record's line).
  static Known known(const QpState& s, uint32_t wqe);

  struct Reap {
    Ps t;
    uint32_t upto;  // every WQE of the QP up to this index has completed
    int core;
  };
  using Cqe = CqeLog::Entry;
  // 88 bytes, all read or written on a WQE's execution (qp_record.h lays the record out by line).
  // A post kept until its WQE executes: 16 bytes, so that an entry never straddles two cache
  // lines (a 24-byte Post did one time in three, at the post and again at the execution).
  struct PostSlot {
    uint32_t wqe;
    int32_t core;
    Ps t;
  };
  struct QpState {
    RingFifo<PostSlot, uint32_t> posts;  // posted, not yet executed (oldest first)
    // Each CQE once, for this record and unreaped_completions (cqe_log.h); this record's reader:
    // written, not yet reaped (consecutive CQE indices).
    CqeLog cqes;
    RingFifo<Reap, uint32_t> reaps;  // oldest first, both fields increasing
    uint32_t cq_depth = 0;
    int ring_pe = -1;      // whose memory holds the CQ ring (-1: not looked up yet)
    // The newest reap's `upto` (while reaps is not empty): a query about a WQE not yet known
    // complete (src_reuse's, on every put) reads the record's line, not the ring's newest entry,
    // written by the last reap and long out of the cache by the QP's next WQE.
    uint32_t newest_upto = 0;
    bool trimmed = false;  // reaps dropped from the front
  };

 private:
  void reap(QpState& s, uint32_t upto, Ps t, int core) {
    if (!s.reaps.empty() && s.newest_upto >= upto) return;  // knew it already
    if (s.reaps.size() == kKeep) {
      s.reaps.pop_front();
      s.trimmed = true;
    }
    s.reaps.emplace_back(Reap{t, upto, core});
    s.newest_upto = upto;
  }

  CheckerContext& m_ctx;
  const QpTable<QpRecord>& m_qps;  // shared (CheckerSet's); entries never move: m_cq_rings points into it
  // CQ rings by base address, to find the QP of a polled CQE slot (one entry per QP).
  CqRingIndex<QpState> m_cq_rings;
  Post m_executed_post;
  static constexpr size_t kKeep = 4096;
};

inline void CompletionKnowledge::on_reaped(uint32_t cqe_index, int core, Ps t, QpState* s) {
  if (!s) return;
  bool any = false;
  uint32_t upto = 0;
  while (!s->cqes.empty(CqeLog::kKnown) && s->cqes.front(CqeLog::kKnown).cqe <= cqe_index) {
    upto = s->cqes.front(CqeLog::kKnown).wqe;
    any = true;
    s->cqes.pop_front(CqeLog::kKnown);
  }
  if (any) reap(*s, upto, t, core);
}

inline void CompletionKnowledge::on_post(const PostRecord& p, QpState& s) {
  // Room is made before the push so that the ring stays at kKeep (posted, never executed: a hang).
  if (s.posts.size() == kKeep) s.posts.pop_front();
  s.posts.emplace_back(PostSlot{p.wqe_index, p.core, p.t});
}

inline CompletionKnowledge::Known CompletionKnowledge::known(const QpState& s, uint32_t wqe) {
  if (s.reaps.empty() || s.newest_upto < wqe) return {kNever, -1};  // reaps.back().upto
  // The first reap covering the WQE (both fields increase; the newest covers it).
  size_t lo = 0, hi = s.reaps.size() - 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (s.reaps[mid].upto < wqe) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0 && s.trimmed) return {0, -1};
  return {s.reaps[lo].t, s.reaps[lo].core};
}

}  // namespace symsim
