// The write history's ring (write_history.h): the newest kKept writes, one entry per WQE (its
// data, its CQE, or both) or per copy, each read back exactly as it was pushed.
//
// The ring is written on every WQE into a slot last written a ring ago, so its bytes are the
// lines the history costs the caches: an entry is 32 bytes, two a line (it was 48, s35-ratio;
// 56 before), by keeping what does not fit once:
// - the times (the data's and the CQE's) as 32-bit offsets from the entry's block's base: a
//   block is kBlock consecutive entries, its base 2^31 ps (2.1 ms) before the time of its first,
//   so an offset reaches 2.1 ms either side of that first time (writes are pushed in the order
//   the engines and cores act, not in time order: a WQE's data lands after a later WQE's may);
// - the data's first byte in 48 bits (user-space addresses) beside the opcode and the tags;
// - a WQE's QP in 32 bits: 12 of PE, 12 of slot (+1: -1 is "none"), 8 of QP index;
// - a copy's end as its byte count (32 bits), its site as its return address.
// An entry that does not fit (a time out of its block's reach, an address or a copy too large,
// a QP past those widths) is kept whole in a side map, allocated at the first. The bases sit
// beside the ring, 2 * kKept / kBlock of them: the kept entries span at most kKept / kBlock + 1
// consecutive blocks, so no two share a base (block_timed_ring.h's scheme, over one ring for
// every QP and core instead of a ring per QP).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "models/core/observer.h"
#include "models/core/time.h"

namespace symsim {

class WriteRing {
 public:
  // One write, as pushed and as read back.
  struct Entry {
    enum Kind : uint8_t { kWqe, kCopy };
    Kind kind = kWqe;
    uint8_t opcode = 0;  // kWqe
    uint64_t begin = 0;  // the data's first byte (a WQE without data: [0, 0), which overlaps nothing)
    uint64_t end = 0;
    Ps t = 0;            // when the data landed or the copy was visible
    // kWqe
    QpRef qp;
    uint32_t wqe = 0, cqe = 0;
    Ps cqe_ps = 0;  // 0: no CQE
    // kCopy
    const void* pc = nullptr;  // the copy's site (a return address)
    int core = -1, pe = -1;
  };

  static constexpr size_t kKept = 65536;  // the newest kKept entries are kept
  static constexpr uint32_t kBlock = 512;  // entries a block of times (a power of two)

  uint64_t added() const { return m_added; }
  size_t kept() const { return m_added < kKept ? static_cast<size_t>(m_added) : kKept; }

  // Inline: one a WQE. Its data is [begin, begin + bytes) (0, 0: it wrote none), landed at
  // r.remote_write_ps; its CQE (r.cqe_ps != 0) is r.cqe_index of r.qp. The entry is written
  // first and tested after (then kept whole instead): fewer values live at once.
  void push_wqe(const WqeRecord& r, uint64_t begin, uint32_t bytes) {
    const uint64_t n = m_added++;
    Packed& p = slot_for(n);
    const Ps base = base_at_push(n, r.remote_write_ps);
    const uint64_t cqe = r.cqe_ps != 0;
    // No CQE: offset 0 (any that fits: the tag tells).
    const uint64_t t_offset = r.remote_write_ps - base, cqe_offset = (cqe ? r.cqe_ps : base) - base;
    const uint32_t pe = static_cast<uint32_t>(r.qp.pe), slot = static_cast<uint32_t>(r.qp.slot + 1),
                   qp = static_cast<uint32_t>(r.qp.qp);
    p.head = begin | uint64_t{r.opcode} << kAddrBits | cqe << (kTagShift + kTagCqeBit);
    p.times_bytes = static_cast<uint32_t>(t_offset) | uint64_t{bytes} << 32;
    p.a = (pe << 20 | slot << 8 | qp) | uint64_t{r.wqe_index} << 32;
    p.b = r.cqe_index | cqe_offset << 32;
    // Any bit set past a field's width: the entry does not fit (one branch for all of them).
    const uint64_t over = (begin >> kAddrBits) | (t_offset >> 32) | (cqe_offset >> 32) |
                          ((pe | slot) >> 12) | (qp >> 8);
    if (__builtin_expect(over != 0, 0)) keep_wqe_whole(n, r, begin, bytes);
  }
  void push_copy(uint64_t begin, uint64_t bytes, Ps t, const void* pc, int core, int pe) {
    const uint64_t n = m_added++;
    Packed& p = slot_for(n);
    const Ps base = base_at_push(n, t);
    p.head = begin | uint64_t{kTagCopy} << kTagShift;
    p.times_bytes = static_cast<uint32_t>(t - base) | bytes << 32;
    p.a = reinterpret_cast<uintptr_t>(pc);
    p.b = static_cast<uint32_t>(core) | uint64_t{static_cast<uint32_t>(pe)} << 32;
    if (__builtin_expect(((begin >> kAddrBits) | ((t - base) >> 32) | (bytes >> 32)) != 0, 0)) {
      Entry e;
      e.kind = Entry::kCopy;
      e.begin = begin;
      e.end = begin + bytes;
      e.t = t;
      e.pc = pc;
      e.core = core;
      e.pe = pe;
      keep_whole(n, e);
    }
  }

  // The i-th newest entry (0: the newest), i < kept().
  Entry newest(size_t i) const { return entry(m_added - 1 - i); }

  // The newest entry that wrote any of [a, a + bytes) by `t` (newest first; a WQE's CQE, at
  // `cqe_range(entry)`, before its data: it was written after them). False when none did; else
  // `found` is the entry and `cqe` says which of its writes it was.
  template <typename CqeRange>
  bool newest_writer(uint64_t a, uint64_t bytes, Ps t, CqeRange&& cqe_range, Entry& found, bool& cqe) const {
    const auto overlaps = [&](uint64_t begin, uint64_t end, Ps written) {
      return begin < a + bytes && a < end && written <= t;
    };
    for (size_t i = 0, n = kept(); i < n; ++i) {
      const Entry w = newest(i);
      if (w.kind == Entry::kWqe && w.cqe_ps != 0) {
        const auto range = cqe_range(w);
        if (overlaps(range.first, range.second, w.cqe_ps)) {
          found = w;
          cqe = true;
          return true;
        }
      }
      if (overlaps(w.begin, w.end, w.t)) {
        found = w;
        cqe = false;
        return true;
      }
    }
    return false;
  }

 private:
  static constexpr unsigned kAddrBits = 48, kTagShift = 56;
  enum Tag : uint8_t { kTagCqe = 1, kTagCopy = 2, kTagWhole = 4 };
  static constexpr unsigned kTagCqeBit = 0;
  // Four words, each written whole (one store a word on every WQE).
  struct Packed {
    uint64_t head;         // begin (48 bits) | opcode << 48 | Tag bits << 56
    uint64_t times_bytes;  // the time less the block's base (low half) | end - begin << 32
    uint64_t a;            // WQE: QP (PE << 20 | (slot + 1) << 8 | QP index) | WQE index << 32; copy: pc
    uint64_t b;            // WQE: CQE index | (the CQE's time less the block's base, kTagCqe) << 32;
                           // copy: core | PE << 32
  };
  static_assert(sizeof(Packed) == 32, "one WQE's history entry: half a line");
  static_assert((kKept & (kKept - 1)) == 0 && kKept % kBlock == 0, "a slot by a mask, whole blocks");
  static constexpr uint64_t kBases = 2 * kKept / kBlock;
  static constexpr Ps kHalfReach = Ps{1} << 31;

  Packed& slot_for(uint64_t n) {
    Packed* p = &m_slots[n & (kKept - 1)];
    // The next line, fetched now: the ring is 2 MiB, so it was last written far out of the
    // caches (a prefetch past the ring's end fetches a line of no use and never faults).
    __builtin_prefetch(reinterpret_cast<const char*>(p) + 64, 1);
    return *p;
  }
  // The base of entry n's block, set when n starts a block.
  Ps base_at_push(uint64_t n, Ps t) {
    if ((n & (kBlock - 1)) == 0) m_base = m_bases[(n / kBlock) & (kBases - 1)] = t - kHalfReach;
    return m_base;
  }
  Entry entry(uint64_t n) const {
    const Packed& p = m_slots[n & (kKept - 1)];
    const unsigned tags = static_cast<unsigned>(p.head >> kTagShift);
    if (tags & kTagWhole) return m_side->at(n);
    const Ps base = m_bases[(n / kBlock) & (kBases - 1)];
    Entry e;
    e.begin = p.head & ((uint64_t{1} << kAddrBits) - 1);
    e.end = e.begin + (p.times_bytes >> 32);
    e.t = base + static_cast<uint32_t>(p.times_bytes);
    if (tags & kTagCopy) {
      e.kind = Entry::kCopy;
      e.pc = reinterpret_cast<const void*>(static_cast<uintptr_t>(p.a));
      e.core = static_cast<int32_t>(static_cast<uint32_t>(p.b));
      e.pe = static_cast<int32_t>(static_cast<uint32_t>(p.b >> 32));
      return e;
    }
    const auto qp = static_cast<uint32_t>(p.a);
    e.kind = Entry::kWqe;
    e.opcode = static_cast<uint8_t>(p.head >> kAddrBits);
    e.qp = QpRef{static_cast<int>(qp >> 20), static_cast<int>((qp >> 8) & 0xFFFu) - 1, static_cast<int>(qp & 0xFFu)};
    e.wqe = static_cast<uint32_t>(p.a >> 32);
    e.cqe = static_cast<uint32_t>(p.b);
    e.cqe_ps = (tags & kTagCqe) ? base + (p.b >> 32) : 0;
    return e;
  }
  // Out of line: rare.
  [[gnu::noinline]] void keep_wqe_whole(uint64_t n, const WqeRecord& r, uint64_t begin, uint32_t bytes) {
    Entry e;
    e.kind = Entry::kWqe;
    e.opcode = r.opcode;
    e.begin = begin;
    e.end = begin + bytes;
    e.t = r.remote_write_ps;
    e.qp = r.qp;
    e.wqe = r.wqe_index;
    e.cqe = r.cqe_index;
    e.cqe_ps = r.cqe_ps;
    keep_whole(n, e);
  }
  // Entries no longer kept are dropped once the side holds two rings of entries (amortised O(1)).
  [[gnu::noinline]] void keep_whole(uint64_t n, const Entry& e) {
    if (!m_side) m_side = std::make_unique<std::unordered_map<uint64_t, Entry>>();
    if (m_side->size() >= 2 * kKept) {
      for (auto it = m_side->begin(); it != m_side->end();)
        it = m_added - it->first <= kKept ? std::next(it) : m_side->erase(it);
    }
    (*m_side)[n] = e;
    m_slots[n & (kKept - 1)].head = uint64_t{kTagWhole} << kTagShift;
  }

  // The slots, allocated whole and not initialised: untouched pages cost no memory, and an entry
  // is written before it is read. Entry n (counting from 0) is at n % kKept.
  std::unique_ptr<Packed[]> m_slots{new Packed[kKept]};
  std::unique_ptr<Ps[]> m_bases{new Ps[kBases]};
  uint64_t m_added = 0;  // entries ever added
  Ps m_base = 0;         // the newest block's base
  std::unique_ptr<std::unordered_map<uint64_t, Entry>> m_side;  // entries kept whole, by number
};

}  // namespace symsim
