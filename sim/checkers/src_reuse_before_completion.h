#pragma once
#include <algorithm>
#include <functional>
#include <map>
#include <tuple>
#include <vector>
#include <utility>

#include "models/ascend/wqe_layout.h"
#include "models/core/sim_now.h"
#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/completion_knowledge.h"
#include "sim/checkers/node_pool.h"
#include "sim/checkers/page_heads.h"
#include "sim/checkers/ring_fifo.h"

namespace symsim {

struct QpRecord;

inline constexpr HazardId kSrcReuseBeforeCompletion{"src_reuse_before_completion", "a put's source was rewritten before its completion"};

// src_reuse_before_completion: a put's source rewritten after the put was posted and before
// its PE knew it complete (a reap covering it: quiet, a CQE poll, a CQ doorbell). Reported
// whether or not the engine had already read the source; `observed` when the rewrite fell
// while the put was still in flight.
class SrcReuseChecker : public Checker {
 public:
  explicit SrcReuseChecker(CheckerContext& ctx) : Checker(ctx), m_known(*ctx.completions) {}
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  struct QpLast;
  // `last` and `done` are r's QP's parts of its record `rec` (qp_record.h). Inline (the hub's
  // execution): mostly the put extends its QP's last window.
  void on_executed(const WqeRecord& r, const QpLast& last, const CompletionKnowledge::QpState& done, QpRecord& rec);
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_gm_store(const StoreRecord& s) override;

 private:
  struct Window;

 public:
  // A put's source on its QP: windows are kept per PE by this key, ordered as the tuple
  // (va, bytes, slot, qp); a struct compares in half the instructions.
  struct SourceKey {
    uint64_t va;
    uint32_t bytes;
    int slot, qp;
    bool operator<(const SourceKey& o) const {
      if (va != o.va) return va < o.va;
      if (bytes != o.bytes) return bytes < o.bytes;
      if (slot != o.slot) return slot < o.slot;
      return qp < o.qp;
    }
    bool operator==(const SourceKey& o) const { return va == o.va && bytes == o.bytes && slot == o.slot && qp == o.qp; }
  };
  // Kept in the QP's record: the window its last put went to (a QP's puts mostly reuse one
  // source), so that the next put of that source skips the map. Valid while no window has been
  // erased and no map moved since (`epoch` == m_epoch). Whether a put has that window's source is
  // read from the window itself (its puts' source; the slot and QP are the record's own), which
  // the same-source put reads and writes anyway: 16 bytes in the record, not 32 (qp_record.h).
  struct QpLast {
    Window* win = nullptr;
    uint64_t epoch = 0;
  };

 private:
  // A write by PE `pe` (core -1: its host) to [dst, dst + bytes) at `t`.
  struct Rewrite {
    int pe, core;
    const uint8_t* dst;
    uint64_t bytes;
    Ps t;
    SiteRef site;
    const char* what;
  };
  // What a judgement and its report need of a put (a window keeps two: not whole WqeRecords).
  // The WQE index first: a window's extension reads `first`'s index only.
  struct Put {
    uint32_t wqe_index, bytes;
    QpRef qp;
    int target_pe;
    uint8_t opcode;
    uint64_t local_va;
    Ps doorbell_ps;
  };
  static Put put_of(const WqeRecord& r) {
    return {r.wqe_index, r.bytes, r.qp, r.target_pe, r.opcode, r.local_va, r.doorbell_ps};
  }
  // Puts of one source on one QP that its PE has not yet known complete, from the first to
  // the last: a reap covering `last` settles them all (CQEs of a QP come in order). Laid out
  // for the extension of a window by a put (on_executed), which reads and writes its first 60
  // bytes: `last`, `complete_ps` and `first.wqe_index` (one or two cache lines, not three).
  struct Window {
    Put last;
    Ps complete_ps;  // the latest completion among them
    Put first;
    const QpRecord* rec;  // their QP's record (QpTable's entries never move): no lookup to judge
  };
  // Whether `last` names a live window of this source (the same QP's: the record's).
  bool is_last(const QpLast& last, uint64_t va, uint32_t bytes) const {
    return last.epoch == m_epoch && last.win->last.local_va == va && last.win->last.bytes == bytes;
  }
  // A put whose window is not simply extended (on_executed): judged against the core writes
  // that may follow its post, then filed in a new or extended window.
  void add_put(const WqeRecord& r, QpRecord& rec);
  // Whether a core write of PE `pe` may start after a post at `posted`. Writes are made in time
  // order: when the newest was made too early to start after the post, so were all the others.
  bool may_follow_writes(int pe, Ps posted) const {
    return static_cast<size_t>(pe) < m_newest_made_ps.size() && m_newest_made_ps[static_cast<size_t>(pe)] != kNoWrite &&
           m_newest_made_ps[static_cast<size_t>(pe)] + m_max_lead_ps >= posted;
  }
  void on_rewrite(const Rewrite& w);
  void judge(const Window& win, const Rewrite& w);
  // judge()'s report, out of line: its Hazard and strings would otherwise widen judge()'s stack
  // frame, whose lines a rewrite touches on a coroutine stack gone cold (docs/performance.md, s28-ep).
  [[gnu::cold, gnu::noinline]] void report(const Window& win, const Rewrite& w, const Put& put, const uint8_t* src);
  // When a put rung at `doorbell_ps` was posted.
  Ps posted_ps(Ps doorbell_ps) const {
    return doorbell_ps - (m_doorbell_delay_ps != kNoDelayYet ? m_doorbell_delay_ps : doorbell_delay_ps());
  }
  Ps doorbell_delay_ps() const;  // a doorbell's delay after its store (from the preset, read once)
  static constexpr Ps kNoDelayYet = ~Ps{0};
  mutable Ps m_doorbell_delay_ps = kNoDelayYet;  // a doorbell's delay after its store (from the preset)
  // Whether the PE knew put `r` of window `win` complete at `t`.
  bool settled(const Window& win, const Put& r, Ps t) const { return m_known.known(*win.rec, r.wqe_index).t <= t; }
  // Forgets the windows that completed before `now` and need no more watching.
  void prune(Ps now) {
    if (!m_expiry.empty() && m_expiry.front().t < now) expire(now);
  }
  void expire(Ps now);
  // Windows per PE and (source address, length, slot, QP). One map per PE (a copy only meets
  // its own PE's sources), ordered by address so a copy only visits the sources it may overlap.
  // Every erase, and every resize of m_sources, starts a new epoch (QpLast).
  // The maps' nodes are recycled (a MoE WQE's put is mostly a new source, and the launch's end
  // erases them all): declared before the maps, the pool outlives them.
  using Sources = std::map<SourceKey, Window, std::less<SourceKey>, PoolAllocator<std::pair<const SourceKey, Window>>>;
  // A put extending its QP's window reads and writes the window's first 60 bytes (Window): one
  // line when the window starts one. libstdc++'s tree node is a 32-byte header, then the key.
  NodePool m_source_nodes{32 + sizeof(SourceKey)};
  std::vector<Sources> m_sources;  // by PE
  uint64_t m_epoch = 1;
  uint64_t m_max_source_bytes = 0;
  // Per PE, the address range every source so far lies in: most copies (into receive buffers,
  // clears) fall outside it and skip the map.
  std::vector<std::pair<uint64_t, uint64_t>> m_source_span;
  // When a window may have completed, earliest first (prune checks the entry itself). A
  // completed window stays until its PE knows it complete or its launch ends. An entry names
  // its window directly while its epoch is current (else it is found by key).
  // Ordered by time only: what expire() decides for one window does not depend on the others
  // due at the same time.
  struct Expiry {
    int pe;
    SourceKey key;
    Window* win;
    uint64_t epoch;
  };
  // A min-heap (std::push_heap with std::greater) of due times naming their entries in
  // m_expiries: a window extended since its entry was queued gets the entry back with a later
  // time in one sift (requeue_top), which moves 16-byte items, not whole entries.
  struct Due {
    Ps t;
    uint32_t expiry;  // index into m_expiries
    bool operator>(const Due& o) const { return t > o.t; }
  };
  std::vector<Due> m_expiry;
  std::vector<Expiry> m_expiries;
  std::vector<uint32_t> m_free_expiries;  // indices of m_expiries not in the heap
  void queue(Ps t, const Expiry& e) {
    uint32_t id;
    if (m_free_expiries.empty()) {
      id = static_cast<uint32_t>(m_expiries.size());
      m_expiries.push_back(e);
    } else {
      id = m_free_expiries.back();
      m_free_expiries.pop_back();
      m_expiries[id] = e;
    }
    m_expiry.push_back({t, id});
    std::push_heap(m_expiry.begin(), m_expiry.end(), std::greater<Due>());
  }
  void requeue_top(Ps t);
  const CompletionKnowledge& m_known;  // shared, fed before this checker's hooks
  std::vector<int> m_running;  // blocks running, by PE
  // Recent GM writes by cores, per PE, in the order the cores made them (kept 50 us), numbered
  // in order (seq). A core's copy starts at most `m_max_lead_ps` after the time it was made, so
  // the writes that can start after a doorbell were all made after (doorbell - lead): a WQE
  // looks at those filed under its source's chunks only. Each write is filed under each 64 KiB
  // chunk it touches: a filing links to the previous one of that chunk, and a table holds each
  // chunk's newest, so filing is a table lookup and a push, and forgetting a pop (no unlinking).
  struct Write {
    const uint8_t* dst;
    uint64_t bytes;
    Ps issue_ps, made_ps;
    int core;
    SiteRef site;
    const char* what;
  };
  struct Filing {
    uint64_t seq;    // the write
    uint64_t older;  // the chunk's previous filing (PageHeads::kNone: none)
  };
  struct PeWrites {
    RingFifo<Write> list;  // oldest first; list[i] has seq first_seq + i
    uint64_t first_seq = 0;
    RingFifo<Filing> filings;  // in order; filings[i] is filing first_filing + i
    uint64_t first_filing = 0;
    PageHeads newest;  // chunk -> its newest filing (PageHeads takes any 64-bit key)
  };
  std::vector<PeWrites> m_writes;  // by PE
  // By PE, when its newest write was made (m_writes[pe].list.back().made_ps; kNoWrite: none),
  // read on every put: one line for all PEs, not a PE's ring header and its newest entry.
  static constexpr Ps kNoWrite = ~Ps{0};
  std::vector<Ps> m_newest_made_ps;
  std::vector<uint64_t> m_found;   // scratch: the seqs one WQE meets
  Ps m_max_lead_ps = 0;
};

inline void SrcReuseChecker::on_executed(const WqeRecord& r, const QpLast& last, const CompletionKnowledge::QpState& done,
                                         QpRecord& rec) {
  const bool reads_source = r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify;
  if (!reads_source || r.status != 0) return;
  // The common case (put-heavy: every put): the QP's last put had the same source, no core
  // write may start after this post, and the PE does not yet know that put complete. Then the
  // put only extends that window (what add_put does in this case; the source span and the
  // longest source are unchanged).
  if (is_last(last, r.local_va, r.bytes)) {  // the same source (same QP)
    const Ps posted = posted_ps(r.doorbell_ps);
    if (!may_follow_writes(r.qp.pe, posted) &&
        CompletionKnowledge::known(done, last.win->last.wqe_index).t > posted) {
      Window& win = *last.win;
      win.last = put_of(r);
      win.complete_ps = std::max(win.complete_ps, r.complete_ps);
      if (win.first.wqe_index == r.wqe_index)
        queue(r.complete_ps, {r.qp.pe, SourceKey{r.local_va, r.bytes, r.qp.slot, r.qp.qp}, &win, m_epoch});
      prune(sim_now_ps());
      return;
    }
  }
  add_put(r, rec);
}

}  // namespace symsim
