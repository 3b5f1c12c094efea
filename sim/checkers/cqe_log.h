// The CQEs of one QP, for its two readers: the completion record (CompletionKnowledge: CQEs not
// yet reaped) and unreaped_completions (CQEs not yet returned with the CQ doorbell). One ring
// holds each CQE once, from the older reader's front to the newest; each reader keeps its own
// front and forgets from it. A WQE's CQE is written into one entry where the two rules had a
// ring each (two cache lines per WQE, every one a miss by the time the QP's next WQE comes).
// Both readers hear every CQE (cqe_ps != 0 exactly when the WQE asked for one or failed: the
// engine writes no other CQE); a reader whose rule is off is kept empty.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "models/core/time.h"

namespace symsim {

class CqeLog {
 public:
  enum Reader { kKnown = 0, kUnreaped = 1 };
  struct Entry {
    uint32_t cqe, wqe;
    Ps cqe_ps;  // when it is visible in the CQ ring
  };

  bool written() const { return m_items != nullptr; }  // a CQE was pushed once
  bool empty(Reader r) const { return m_tail == m_front[r]; }
  size_t size(Reader r) const { return m_tail - m_front[r]; }
  const Entry& front(Reader r) const { return at(m_front[r]); }
  const Entry& back() const { return at(m_tail - 1); }  // the newest (of a reader that is not empty)
  const Entry& get(Reader r, size_t i) const { return at(m_front[r] + static_cast<uint32_t>(i)); }  // oldest first
  void pop_front(Reader r) { ++m_front[r]; }
  // pop_front, and the line one line past the dropped entry fetched, for a later read. A reader
  // that lags the writer (put-heavy's reaps: 0.25 L2 read misses a WQE there, s34-miss) reads
  // entries whose lines left the caches, the first of each line a miss. Fetched one line ahead,
  // a line comes during the other QPs' WQEs before this QP's later reaps read it. One
  // instruction: the address is the entry's plus a line, so near the ring's end it fetches a
  // line past the ring, of no use (a prefetch never faults).
  void pop_front_fetching_ahead(Reader r) {
    __builtin_prefetch(&at(m_front[r]) + kPerLine, 0);
    ++m_front[r];
  }

  // `known` / `unreaped`: that reader's rule is on (else it stays empty).
  void push(const Entry& e, bool known, bool unreaped) {
    if (!m_items || m_tail - oldest() > m_mask) grow();
    Entry* slot = &m_items[m_tail & m_mask];
    *slot = e;
    ++m_tail;
    // The next CQE's line, fetched now: the QP's next CQE comes after the other QPs' WQEs, and
    // its line was last written a whole ring ago (bounded_ring.h's push_slot says why). From
    // this slot, not the next index: one instruction (at the ring's end it fetches the line
    // after the ring, of no use; a prefetch never faults).
    __builtin_prefetch(slot + 1, 1);
    if (!known) m_front[kKnown] = m_tail;
    if (!unreaped) m_front[kUnreaped] = m_tail;
  }

 private:
  const Entry& at(uint32_t seq) const { return m_items[seq & m_mask]; }
  uint32_t oldest() const {
    return m_tail - m_front[kKnown] > m_tail - m_front[kUnreaped] ? m_front[kKnown] : m_front[kUnreaped];
  }
  // Out of line: doubles the ring (entries keep their sequence numbers; nothing per CQE once warm).
  [[gnu::noinline]] void grow() {
    const size_t capacity = m_items ? 2 * (size_t{m_mask} + 1) : 4;
    std::unique_ptr<Entry[]> bigger(new Entry[capacity]);
    const auto mask = static_cast<uint32_t>(capacity - 1);
    for (uint32_t seq = oldest(); seq != m_tail; ++seq) bigger[seq & mask] = at(seq);
    m_items = std::move(bigger);
    m_mask = mask;
  }

  static constexpr uint32_t kPerLine = 64 / sizeof(Entry);

  // 24 bytes: the ring sits in the QP's record (qp_record.h). Sequence numbers count CQEs
  // pushed, modulo 2^32; entry `seq` is at m_items[seq & m_mask].
  std::unique_ptr<Entry[]> m_items;
  uint32_t m_mask = 0;
  uint32_t m_tail = 0;  // the next sequence number
  uint32_t m_front[2] = {0, 0};
};

}  // namespace symsim
