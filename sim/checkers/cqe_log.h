// The CQEs of one QP, for its two readers: the completion record (CompletionKnowledge: CQEs not
// yet reaped) and unreaped_completions (CQEs not yet returned with the CQ doorbell). One ring
// holds each CQE once, from the older reader's front to the newest; each reader keeps its own
// front and forgets from it. A WQE's CQE is written into one entry where the two rules had a
// ring each (two cache lines per WQE, every one a miss by the time the QP's next WQE comes).
// Both readers hear every CQE (cqe_ps != 0 exactly when the WQE asked for one or failed: the
// engine writes no other CQE); a reader whose rule is off is kept empty.
//
// Its reach is real: the completion record keeps every CQE not yet reaped, up to the CQ's depth
// (32,768 on ascend910c), and put-heavy's credit check drains an SQ of 16,384-plus WQEs at a
// time, so the ring holds 32,768 entries on each busy QP (16 MiB over put-heavy's 32 QPs at 16
// bytes an entry: the checkers' largest footprint, s36-ratio). So an entry is 8 bytes, the WQE
// index and the CQE's visible time as an offset; what it leaves out is kept once:
// - the CQE index is the entry's sequence number plus the log's offset: the engine numbers a
//   QP's CQEs one by one (UdmaEngine::write_cqe's cq_produced) and each is logged;
// - the time is its block's base (the time of the block's first entry; kBlock entries a block)
//   plus the entry's 32-bit offset (4.29 ms): a QP's CQEs come in time order
//   (UdmaEngine::write_cqe's last_cqe_ps).
// An entry that fits neither is kept whole on the side: a time before its block's base or
// 4.29 ms past it; at a CQE index that is not the next one, every live entry before it, and the
// log takes the new offset. So every reader sees exactly what was pushed. The slots, the blocks'
// bases and the entries kept whole are BlockTimedRing's (block_timed_ring.h, shared with the
// reaps log); the slot's value is the WQE index.
#pragma once
#include <cstddef>
#include <cstdint>

#include "models/core/time.h"
#include "sim/checkers/block_timed_ring.h"

namespace symsim {

class CqeLog {
 public:
  enum Reader { kKnown = 0, kUnreaped = 1 };
  struct Entry {
    uint32_t cqe, wqe;
    Ps cqe_ps;  // when it is visible in the CQ ring
  };

  bool written() const { return m_ring.allocated(); }  // a CQE was pushed once (or open() called)
  // Allocates the ring for the first CQE, `cqe` (push does when it must; push_written does not).
  void open(uint32_t cqe) {
    if (!m_ring.allocated()) grow(cqe);
  }
  bool empty(Reader r) const { return m_tail == m_front[r]; }
  size_t size(Reader r) const { return m_tail - m_front[r]; }
  uint32_t front_cqe(Reader r) const { return cqe_at(m_front[r]); }
  uint32_t front_wqe(Reader r) const { return m_ring.slot(m_front[r]).value; }
  Entry front(Reader r) const { return entry(m_front[r]); }
  Entry back() const { return entry(m_tail - 1); }  // the newest (of a reader that is not empty)
  Entry get(Reader r, size_t i) const { return entry(m_front[r] + static_cast<uint32_t>(i)); }  // oldest first
  void pop_front(Reader r) { ++m_front[r]; }
  void drop_front(Reader r, uint32_t n) { m_front[r] += n; }  // n <= size(r)

  // Drops the reader's entries from its front up to the first whose CQE index is above `cqe`
  // (as `while (!empty(r) && front_cqe(r) <= cqe) pop_front(r)`): false when it drops none, else
  // true and `wqe` the WQE index of the last one dropped. Inline: put-heavy reaps every
  // CQE so. Without an entry kept whole in the reader's part, its CQE indices are consecutive:
  // the entries to drop are counted, not read, and one entry is read. (Consecutive from
  // `first`, the loop stops at the index after `cqe`, before any wrap past 2^32, unless `cqe` is
  // the largest index, which no index exceeds: then it drops them all, as the count in 64 bits
  // does.) The line one line past
  // the new front is fetched for a later reap: a reader that lags the writer (put-heavy's
  // reaps: 0.25 L2 read misses a WQE there, s34-miss) reads entries whose lines left the caches;
  // the line comes during the other QPs' WQEs (one instruction; near the ring's end it fetches
  // a line past the ring, of no use: a prefetch never faults).
  bool pop_through(Reader r, uint32_t cqe, uint32_t& wqe) {
    const uint32_t n = m_tail - m_front[r];
    if (n == 0) return false;
    if (__builtin_expect(m_ring.any_whole(m_front[r], n), false)) {
      const uint64_t last = pop_through_slowly(r, cqe);
      wqe = static_cast<uint32_t>(last);
      return last != kNoneDropped;
    }
    const uint32_t first = m_front[r] + m_cqe_minus_seq;
    if (first > cqe) return false;
    const uint64_t upto = uint64_t{cqe} - first + 1;  // in 64 bits: no wrap, `cqe` the largest too
    m_front[r] += upto > n ? n : static_cast<uint32_t>(upto);
    const Slot* last = &m_ring.slot(m_front[r] - 1);
    __builtin_prefetch(last + 1 + Ring::kPerLine, 0);
    wqe = last->value;
    return true;
  }

  // `known` / `unreaped`: that reader's rule is on (else it stays empty).
  void push(const Entry& e, bool known, bool unreaped) { push(e.cqe, e.wqe, e.cqe_ps, known, unreaped); }
  void push(uint32_t cqe, uint32_t wqe, Ps cqe_ps, bool known, bool unreaped) {
    open(cqe);
    push_written(cqe, wqe, cqe_ps, known, unreaped);
  }
  // push, once written() (the completion record's execution opens the log at its first CQE).
  void push_written(uint32_t cqe, uint32_t wqe, Ps cqe_ps, bool known, bool unreaped) {
    if (m_tail - oldest() > m_ring.mask()) grow(cqe);
    const uint32_t seq = m_tail;
    Slot* slot = &m_ring.slot(seq);
    slot->value = wqe;
    const Ps offset = m_ring.offset_at_push(seq, cqe_ps);
    if (__builtin_expect(cqe - seq != m_cqe_minus_seq, false)) {
      push_whole(cqe, wqe, cqe_ps);
    } else if (__builtin_expect(offset >= Ring::kEscaped, false)) {
      push_whole(cqe, wqe, cqe_ps);
    } else {
      slot->ps_offset = static_cast<uint32_t>(offset);
    }
    ++m_tail;
    // The next line of CQEs, fetched now: the QP's later CQEs come after the other QPs' WQEs,
    // and the line was last written a whole ring ago (bounded_ring.h's push_slot says why).
    // From this slot: one instruction (at the ring's end it fetches a line past the ring, of no
    // use; a prefetch never faults).
    __builtin_prefetch(slot + Ring::kPerLine, 1);
    if (!known) m_front[kKnown] = m_tail;
    if (!unreaped) m_front[kUnreaped] = m_tail;
  }

 private:
  using Ring = BlockTimedRing<Entry>;
  using Slot = Ring::Slot;

  uint32_t cqe_at(uint32_t seq) const {
    if (__builtin_expect(m_ring.kept_whole(seq), false)) return m_ring.whole(seq).cqe;
    return seq + m_cqe_minus_seq;
  }
  Entry entry(uint32_t seq) const {
    if (__builtin_expect(m_ring.kept_whole(seq), false)) return m_ring.whole(seq);
    return Entry{seq + m_cqe_minus_seq, m_ring.slot(seq).value, m_ring.time(seq)};
  }
  uint32_t oldest() const {
    return m_tail - m_front[kKnown] > m_tail - m_front[kUnreaped] ? m_front[kKnown] : m_front[kUnreaped];
  }

  // Out of line: the loop pop_through stands for, over entries some of which are kept whole.
  // The WQE index of the last entry dropped, kNoneDropped when none (returned in a register: an
  // out parameter would put the fast path's WQE index on the stack).
  static constexpr uint64_t kNoneDropped = ~uint64_t{0};
  [[gnu::noinline]] uint64_t pop_through_slowly(Reader r, uint32_t cqe) {
    uint64_t wqe = kNoneDropped;
    while (!empty(r) && cqe_at(m_front[r]) <= cqe) {
      wqe = m_ring.slot(m_front[r]).value;
      ++m_front[r];
    }
    return wqe;
  }
  // Out of line: the entry at the tail does not fit its slot.
  [[gnu::noinline]] void push_whole(uint32_t cqe, uint32_t wqe, Ps cqe_ps) {
    const Entry e{cqe, wqe, cqe_ps};
    const uint32_t seq = m_tail;
    if (e.cqe - seq != m_cqe_minus_seq) {
      // A CQE index that is not the next one: the live entries keep theirs, whole.
      for (uint32_t s = oldest(); s != seq; ++s)
        if (!m_ring.kept_whole(s)) m_ring.keep_whole(s, entry(s), oldest(), m_tail);
      m_cqe_minus_seq = e.cqe - seq;
    }
    const Ps offset = m_ring.offset(seq, e.cqe_ps);
    if (offset < Ring::kEscaped) {
      m_ring.slot(seq).ps_offset = static_cast<uint32_t>(offset);
    } else {
      m_ring.keep_whole(seq, e, oldest(), m_tail);
    }
  }

  // Out of line: doubles the ring (nothing per CQE once warm). `cqe`: the pushed CQE's index (on
  // the first push, the log's offset).
  [[gnu::noinline]] void grow(uint32_t cqe) {
    if (!m_ring.allocated()) m_cqe_minus_seq = cqe - m_tail;
    m_ring.grow(oldest(), m_tail);
  }

  // 40 bytes: the ring sits in the QP's record (qp_record.h). Sequence numbers count CQEs
  // pushed, modulo 2^32.
  Ring m_ring;
  uint32_t m_tail = 0;  // the next sequence number
  uint32_t m_front[2] = {0, 0};
  uint32_t m_cqe_minus_seq = 0;  // an entry's CQE index less its sequence number
};

}  // namespace symsim
