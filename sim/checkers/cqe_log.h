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
// An entry that fits neither is kept whole on the side (`Side::escaped`): a time before its
// block's base or 4.29 ms past it; at a CQE index that is not the next one, every live entry
// before it, and the log takes the new offset. So every reader sees exactly what was pushed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "models/core/time.h"

namespace symsim {

class CqeLog {
 public:
  enum Reader { kKnown = 0, kUnreaped = 1 };
  struct Entry {
    uint32_t cqe, wqe;
    Ps cqe_ps;  // when it is visible in the CQ ring
  };

  bool written() const { return m_items != nullptr; }  // a CQE was pushed once (or open() called)
  // Allocates the ring for the first CQE, `cqe` (push does when it must; push_written does not).
  void open(uint32_t cqe) {
    if (!m_items) grow(cqe);
  }
  bool empty(Reader r) const { return m_tail == m_front[r]; }
  size_t size(Reader r) const { return m_tail - m_front[r]; }
  uint32_t front_cqe(Reader r) const { return cqe_at(m_front[r]); }
  uint32_t front_wqe(Reader r) const { return m_items[m_front[r] & m_mask].slot.wqe; }
  Entry front(Reader r) const { return entry(m_front[r]); }
  Entry back() const { return entry(m_tail - 1); }  // the newest (of a reader that is not empty)
  Entry get(Reader r, size_t i) const { return entry(m_front[r] + static_cast<uint32_t>(i)); }  // oldest first
  void pop_front(Reader r) { ++m_front[r]; }
  void drop_front(Reader r, uint32_t n) { m_front[r] += n; }  // n <= size(r)

  // Drops the reader's entries from its front up to the first whose CQE index is above `cqe`
  // (as `while (!empty(r) && front_cqe(r) <= cqe) pop_front(r)`): the WQE index of the last one
  // dropped (valid until the next push), null when it drops none. Inline: put-heavy reaps every
  // CQE so. Without an entry kept whole in the reader's part, its CQE indices are consecutive:
  // the entries to drop are counted, not read, and one entry is read. (Consecutive from
  // `first`, the loop stops at the index after `cqe`, before any wrap past 2^32, unless `cqe` is
  // the largest index, which no index exceeds: then it drops them all.) The line one line past
  // the new front is fetched for a later reap: a reader that lags the writer (put-heavy's
  // reaps: 0.25 L2 read misses a WQE there, s34-miss) reads entries whose lines left the caches;
  // the line comes during the other QPs' WQEs (one instruction; near the ring's end it fetches
  // a line past the ring, of no use: a prefetch never faults).
  const uint32_t* pop_through(Reader r, uint32_t cqe) {
    const uint32_t n = m_tail - m_front[r];
    if (n == 0) return nullptr;
    if (__builtin_expect(m_side != nullptr && m_side->newest_escaped - m_front[r] < n, false))
      return pop_through_slowly(r, cqe);
    const uint32_t first = m_front[r] + m_cqe_minus_seq;
    if (first > cqe) return nullptr;
    const uint32_t upto = cqe - first + 1;  // no wrap: first <= cqe
    m_front[r] += cqe == ~uint32_t{0} || upto > n ? n : upto;
    const Word* last = &m_items[(m_front[r] - 1) & m_mask];
    __builtin_prefetch(last + 1 + kPerLine, 0);
    return &last->slot.wqe;
  }

  // `known` / `unreaped`: that reader's rule is on (else it stays empty).
  void push(const Entry& e, bool known, bool unreaped) { push(e.cqe, e.wqe, e.cqe_ps, known, unreaped); }
  void push(uint32_t cqe, uint32_t wqe, Ps cqe_ps, bool known, bool unreaped) {
    open(cqe);
    push_written(cqe, wqe, cqe_ps, known, unreaped);
  }
  // push, once written() (the completion record's execution opens the log at its first CQE).
  void push_written(uint32_t cqe, uint32_t wqe, Ps cqe_ps, bool known, bool unreaped) {
    if (m_tail - oldest() > m_mask) grow(cqe);
    const uint32_t seq = m_tail;
    Word* slot = &m_items[seq & m_mask];
    slot->slot.wqe = wqe;
    Ps& base = base_of(seq);
    if ((seq & (kBlock - 1)) == 0) base = cqe_ps;
    // (A time before the base wraps past kEscaped too.)
    const Ps offset = cqe_ps - base;
    if (__builtin_expect(cqe - seq != m_cqe_minus_seq, false)) {
      push_whole(cqe, wqe, cqe_ps);
    } else if (__builtin_expect(offset >= kEscaped, false)) {
      push_whole(cqe, wqe, cqe_ps);
    } else {
      slot->slot.ps_offset = static_cast<uint32_t>(offset);
    }
    ++m_tail;
    // The next line of CQEs, fetched now: the QP's later CQEs come after the other QPs' WQEs,
    // and the line was last written a whole ring ago (bounded_ring.h's push_slot says why).
    // From this slot: one instruction (at the ring's end it fetches a line past the ring, of no
    // use; a prefetch never faults).
    __builtin_prefetch(slot + kPerLine, 1);
    if (!known) m_front[kKnown] = m_tail;
    if (!unreaped) m_front[kUnreaped] = m_tail;
  }

 private:
  struct Slot {
    uint32_t wqe;
    uint32_t ps_offset;  // cqe_ps - its block's base, or kEscaped (the entry is in Side::escaped)
  };
  // The ring's allocation: capacity slots, then the blocks' base times (the time of each
  // block's first entry), 2 * capacity / kBlock of them (at least 2). The live entries (at most
  // a capacity of consecutive sequence numbers) span at most capacity / kBlock + 1 consecutive
  // blocks, so no two share a base, and a base is rewritten (by the push that starts a block)
  // only once none of its old block's entries is live.
  union Word {
    Slot slot;
    Ps base;
  };
  static_assert(sizeof(Word) == 8, "an entry: an eighth of a cache line");
  static constexpr uint32_t kEscaped = ~uint32_t{0};
  static constexpr uint32_t kBlock = 512;  // entries a block of times (a power of two)
  static constexpr uint32_t kPerLine = 64 / sizeof(Word);
  static uint32_t base_mask_for(uint32_t mask) { return (mask >> 8) | 1u; }
  Ps& base_of(uint32_t seq) const { return m_items[m_mask + 1 + ((seq / kBlock) & m_base_mask)].base; }

  // Entries kept whole (allocated at the first).
  struct Side {
    uint32_t newest_escaped = 0;  // the newest entry kept whole
    std::unordered_map<uint32_t, Entry> escaped;  // by sequence number
  };

  bool kept_whole(uint32_t seq) const { return m_items[seq & m_mask].slot.ps_offset == kEscaped; }
  uint32_t cqe_at(uint32_t seq) const {
    if (__builtin_expect(kept_whole(seq), false)) return m_side->escaped.at(seq).cqe;
    return seq + m_cqe_minus_seq;
  }
  Entry entry(uint32_t seq) const {
    const Slot& s = m_items[seq & m_mask].slot;
    if (__builtin_expect(s.ps_offset == kEscaped, false)) return m_side->escaped.at(seq);
    return Entry{seq + m_cqe_minus_seq, s.wqe, base_of(seq) + s.ps_offset};
  }
  uint32_t oldest() const {
    return m_tail - m_front[kKnown] > m_tail - m_front[kUnreaped] ? m_front[kKnown] : m_front[kUnreaped];
  }

  // Out of line: the loop pop_through stands for, over entries some of which are kept whole.
  [[gnu::noinline]] const uint32_t* pop_through_slowly(Reader r, uint32_t cqe) {
    const uint32_t* wqe = nullptr;
    while (!empty(r) && cqe_at(m_front[r]) <= cqe) {
      wqe = &m_items[m_front[r] & m_mask].slot.wqe;
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
        if (!kept_whole(s)) keep_whole(s, entry(s));
      m_cqe_minus_seq = e.cqe - seq;
    }
    const Ps offset = e.cqe_ps - base_of(seq);
    if (offset < kEscaped) {
      m_items[seq & m_mask].slot.ps_offset = static_cast<uint32_t>(offset);
    } else {
      keep_whole(seq, e);
    }
  }
  // Entries are kept whole oldest first (push_whole's calls).
  void keep_whole(uint32_t seq, const Entry& e) {
    if (!m_side) m_side = std::make_unique<Side>();
    auto& escaped = m_side->escaped;
    // Entries no longer live are dropped once there are twice a ring of them (amortised O(1)).
    if (escaped.size() >= 2 * (size_t{m_mask} + 1)) {
      const uint32_t from = oldest();
      for (auto it = escaped.begin(); it != escaped.end();)
        it = it->first - from < m_tail - from ? std::next(it) : escaped.erase(it);
    }
    escaped[seq] = e;
    m_items[seq & m_mask].slot.ps_offset = kEscaped;
    m_side->newest_escaped = seq;
  }

  // Out of line: doubles the ring (entries keep their sequence numbers; nothing per CQE once
  // warm). Slots and bases are copied as they are (an entry's base and its whole copy are found
  // by its sequence number, the same in both rings): the bases of the live entries' blocks and
  // the tail's (whose later entries the next pushes measure against), at most capacity / kBlock
  // + 2 blocks, within the new table's 4 * capacity / kBlock (or both at most 2).
  // `cqe`: the pushed CQE's index (on the first push, the log's offset).
  [[gnu::noinline]] void grow(uint32_t cqe) {
    const size_t capacity = m_items ? 2 * (size_t{m_mask} + 1) : 4;
    const auto mask = static_cast<uint32_t>(capacity - 1);
    const uint32_t base_mask = base_mask_for(mask);
    // Default-initialised, not zeroed: a slot is written before it is read (the bases too,
    // where they are read: each block's is written by its first push or copied here).
    std::unique_ptr<Word[]> items(new Word[capacity + base_mask + 1]);
    if (m_items) {
      const uint32_t from = oldest();
      for (uint32_t seq = from; seq != m_tail; ++seq) items[seq & mask].slot = m_items[seq & m_mask].slot;
      // Block numbers count modulo 2^32 / kBlock, as sequence numbers do.
      const uint32_t first = from / kBlock, n = ((m_tail / kBlock - first) & (~uint32_t{0} / kBlock)) + 1;
      for (uint32_t k = first; k != first + n; ++k)
        items[capacity + (k & base_mask)].base = m_items[m_mask + 1 + (k & m_base_mask)].base;
    } else {
      m_cqe_minus_seq = cqe - m_tail;
    }
    m_items = std::move(items);
    m_mask = mask;
    m_base_mask = base_mask;
  }

  // 40 bytes: the ring sits in the QP's record (qp_record.h). Sequence numbers count CQEs
  // pushed, modulo 2^32; entry `seq` is at m_items[seq & m_mask].
  std::unique_ptr<Word[]> m_items;
  std::unique_ptr<Side> m_side;
  uint32_t m_mask = 0;
  uint32_t m_tail = 0;  // the next sequence number
  uint32_t m_front[2] = {0, 0};
  uint32_t m_cqe_minus_seq = 0;  // an entry's CQE index less its sequence number
  uint32_t m_base_mask = 0;
};

}  // namespace symsim
