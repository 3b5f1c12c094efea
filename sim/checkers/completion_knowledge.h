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

#include "sim/checkers/checker_context.h"
#include "sim/checkers/cq_ring_index.h"
#include "sim/checkers/cqe_log.h"
#include "sim/checkers/reap_log.h"
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
  // `unreaped` (its rule is on). `s`: the QP's part of its record. Inline (the hub's execution).
  void on_executed(const WqeRecord& r, QpState& s, bool unreaped);
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

  static constexpr size_t kKeep = 4096;  // posts, CQEs not yet reaped and reaps, per QP
  using Reap = ReapLog::Reap;
  using Cqe = CqeLog::Entry;
  // A post kept until its WQE executes: 16 bytes, so that an entry never straddles two cache
  // lines (a 24-byte Post did one time in three, at the post and again at the execution).
  struct PostSlot {
    uint32_t wqe;
    int32_t core;
    Ps t;
  };
  // Laid out by event (qp_record.h): a WQE's execution reads or writes the first 61 bytes
  // (`posts` to `any_reap`) and nothing after them, so that with the other rules' parts the
  // execution touches two lines of the record, not three; the rest is the reaps' (a reap comes
  // with the core's post, whose lines are already in the cache) and the CQE polls'.
  struct QpState {
    // Posted, not yet executed (oldest first). 16-bit indices: at most kKeep are kept (a 16-byte
    // header, not 24).
    RingFifo<PostSlot, uint16_t> posts;
    // Each CQE once, for this record and unreaped_completions (cqe_log.h); this record's reader:
    // written, not yet reaped (consecutive CQE indices). Never written before the QP's first CQE.
    CqeLog cqes;
    // The newest reap's `upto` (while any_reap): a query about a WQE not yet known complete
    // (src_reuse's, on every put) reads the record's line, not the ring's newest entry, written
    // by the last reap and long out of the cache by the QP's next WQE.
    uint32_t newest_upto = 0;
    bool any_reap = false;  // !reaps.empty(), without the ring's header
    // Not read by an execution (but its first CQE's, and a CQ deeper than kKeep).
    bool trimmed = false;  // reaps dropped from the front
    int ring_pe = -1;      // whose memory holds the CQ ring (-1: not looked up yet)
    uint32_t cq_depth = 0;
    ReapLog reaps;  // oldest first, both fields increasing (reap_log.h)
  };
  // What an execution touches of QpState (its first bytes: see qp_record.h).
  static constexpr size_t kExecutionBytes =
      sizeof(RingFifo<PostSlot, uint16_t>) + sizeof(CqeLog) + sizeof(uint32_t) + sizeof(bool);
  static_assert(kKeep <= 32768, "a 16-bit ring holds the kept posts");

 private:
  void reap(QpState& s, uint32_t upto, Ps t, int core) {
    if (s.any_reap && s.newest_upto >= upto) return;  // knew it already
    if (!s.any_reap) {
      s.reaps.open(core);  // the core of the QP's first reap
      s.any_reap = true;
    }
    s.reaps.push(t, upto, core, kKeep, s.trimmed);  // (and fetches the next reap's line)
    s.newest_upto = upto;
  }

  // The QP's first CQE: where its CQ ring lies, for polls of its slots, and the CQE log opened
  // (out of line).
  void first_cqe(const WqeRecord& r, QpState& s);

  CheckerContext& m_ctx;
  const QpTable<QpRecord>& m_qps;  // shared (CheckerSet's); entries never move: m_cq_rings points into it
  // CQ rings by base address, to find the QP of a polled CQE slot (one entry per QP).
  CqRingIndex<QpState> m_cq_rings;
  Post m_executed_post;
};

inline void CompletionKnowledge::on_reaped(uint32_t cqe_index, int core, Ps t, QpState* s) {
  if (!s) return;
  // Every CQE up to this one (the CQEs not yet reaped are in index order) covers up to its WQE.
  uint32_t upto;
  if (s->cqes.pop_through(CqeLog::kKnown, cqe_index, upto)) reap(*s, upto, t, core);
}

inline void CompletionKnowledge::on_post(const PostRecord& p, QpState& s) {
  // Room is made before the push so that the ring stays at kKeep (posted, never executed: a hang).
  if (s.posts.size() == kKeep) s.posts.pop_front();
  s.posts.emplace_back(PostSlot{p.wqe_index, p.core, p.t});
}

inline void CompletionKnowledge::on_executed(const WqeRecord& r, QpState& s, bool unreaped) {
  m_executed_post = {r.wqe_index, -1, r.doorbell_ps, false};
  while (!s.posts.empty() && s.posts.front().wqe <= r.wqe_index) {
    const PostSlot& front = s.posts.front();
    if (front.wqe == r.wqe_index) m_executed_post = {front.wqe, front.core, front.t, true};
    s.posts.pop_front();
  }
  if (r.cqe_ps == 0) return;
  if (!s.cqes.written()) first_cqe(r, s);
  // A CQ holds at most cq_depth unconsumed CQEs: more means its consumer is not telling us.
  // (cq_depth is read only past kKeep: it lies on a line the execution does not touch.)
  const size_t known = s.cqes.size(CqeLog::kKnown);
  if (known >= kKeep && known >= s.cq_depth) s.cqes.pop_front(CqeLog::kKnown);
  s.cqes.push_written(r.cqe_index, r.wqe_index, r.cqe_ps, true, unreaped);
}

inline CompletionKnowledge::Known CompletionKnowledge::known(const QpState& s, uint32_t wqe) {
  if (!s.any_reap || s.newest_upto < wqe) return {kNever, -1};  // reaps.back().upto
  // The first reap covering the WQE (both fields increase; the newest covers it).
  size_t lo = 0, hi = s.reaps.size() - 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (s.reaps.upto(mid) < wqe) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0 && s.trimmed) return {0, -1};
  const Reap first = s.reaps[lo];
  return {first.t, first.core};
}

}  // namespace symsim
