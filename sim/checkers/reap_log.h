// The reaps of one QP that the completion record keeps (completion_knowledge.h): oldest first, the
// WQE index each covers up to and the time and core of the reap, both the index and the time
// increasing. A query about a WQE finds the first reap covering it by a binary search over the
// indices.
//
// A busy QP keeps 4,096 reaps (put-heavy reaps every CQE on its own, at a time of its own), and
// each reap writes an entry whose line was last written a whole ring ago. So an entry is 8 bytes
// (was 16), the WQE index and the time as an offset from its block's base (BlockTimedRing,
// block_timed_ring.h, as the CQE log keeps its times); what it leaves out is kept once:
// - the core is the log's, the core of its first reap (a QP's reaps come from the core that
//   posts on it, on put-heavy every one);
// - a reap that fits neither (another core, the host's CQ doorbell among them (-1), or a time
//   before its block's base or 4.29 ms past it) is kept whole on the side.
// So a query reads back exactly what was pushed.
#pragma once
#include <cstddef>
#include <cstdint>

#include "models/core/time.h"
#include "sim/checkers/block_timed_ring.h"

namespace symsim {

class ReapLog {
 public:
  struct Reap {
    Ps t;
    uint32_t upto;  // every WQE of the QP up to this index has completed
    int core;       // the core that reaped (-1: the host, a CQ doorbell, or unknown)
  };

  bool empty() const { return m_tail == m_head; }
  size_t size() const { return m_tail - m_head; }
  // The i-th live reap's `upto`, oldest first (a binary search reads only these).
  uint32_t upto(size_t i) const { return m_ring.slot(m_head + static_cast<uint32_t>(i)).value; }
  Reap operator[](size_t i) const { return entry(m_head + static_cast<uint32_t>(i)); }
  void pop_front() { ++m_head; }

  // Allocates the ring and takes `core` as the log's (once, before the first push).
  void open(int core) {
    m_core = core;
    m_ring.grow(m_head, m_tail);
  }
  // Pushes a reap (once open), keeping at most `keep` (a power of two, 4 or more): `dropped` set
  // when the oldest was dropped to make room.
  void push(Ps t, uint32_t upto, int core, uint32_t keep, bool& dropped) {
    if (m_tail - m_head > m_ring.mask()) {
      if (m_ring.mask() == keep - 1) {
        ++m_head;
        dropped = true;
      } else {
        m_ring.grow(m_head, m_tail);
      }
    }
    const uint32_t seq = m_tail;
    Slot* slot = &m_ring.slot(seq);
    slot->value = upto;
    // The tail block's base is read from the header (the table's line is not the slot's).
    if ((seq & (Ring::kBlock - 1)) == 0) {
      m_ring.set_base(seq, t);
      m_tail_base = t;
    }
    const Ps offset = t - m_tail_base;  // (a time before the base wraps past kEscaped too)
    if (__builtin_expect(offset >= Ring::kEscaped || core != m_core, false)) {
      push_whole(t, upto, core);
    } else {
      slot->ps_offset = static_cast<uint32_t>(offset);
    }
    ++m_tail;
    // The next line of reaps, fetched now (as the history rings do, bounded_ring.h): on a busy
    // QP the ring is full, so the line a reap writes was last written a whole ring ago and is far
    // out of the caches; the QP's next reap comes after the other QPs' WQEs. (At the ring's end
    // it fetches the line after the ring, of no use; a prefetch never faults.)
    __builtin_prefetch(slot + Ring::kPerLine, 1);
  }

 private:
  using Ring = BlockTimedRing<Reap>;
  using Slot = Ring::Slot;

  Reap entry(uint32_t seq) const {
    if (__builtin_expect(m_ring.kept_whole(seq), false)) return m_ring.whole(seq);
    return Reap{m_ring.time(seq), m_ring.slot(seq).value, m_core};
  }
  // Out of line: the reap at the tail does not fit its slot.
  [[gnu::noinline]] void push_whole(Ps t, uint32_t upto, int core) {
    m_ring.keep_whole(m_tail, Reap{t, upto, core}, m_head, m_tail);
  }

  // 48 bytes (at the end of the completion record's part, qp_record.h). Sequence numbers count
  // reaps pushed, modulo 2^32.
  Ring m_ring;
  uint32_t m_head = 0;  // the oldest live reap
  uint32_t m_tail = 0;  // the next sequence number
  int m_core = -1;      // the core of every reap not kept whole
  Ps m_tail_base = 0;   // the base of the tail's block (as in the ring's table)
};

}  // namespace symsim
