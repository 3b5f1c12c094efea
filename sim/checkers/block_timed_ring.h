// A power-of-two ring of 8-byte entries, each a 32-bit value and a time kept as a 32-bit offset
// from its block's base, for the checkers' per-QP logs whose entries come in time order: the CQE
// log (cqe_log.h) and the reaps log (reap_log.h). A log numbers its entries by sequence number
// (modulo 2^32, entry `seq` at slot `seq & mask`) and keeps its own front and tail; this ring
// keeps the slots, the blocks' bases and the entries kept whole.
//
// A block is kBlock consecutive entries; its base is the time of its first. An entry's time is its
// block's base plus its offset (within 2^32 ps, 4.29 ms). The bases sit after the slots in the
// ring's allocation, 2 * capacity / kBlock of them (at least 2): the live entries (at most a
// capacity of consecutive sequence numbers) span at most capacity / kBlock + 1 consecutive blocks,
// so no two share a base, and a base is rewritten (by the push that starts a block) only once
// none of its old block's entries is live.
//
// An entry that does not fit (a time before its block's base or 4.29 ms past it, or whatever
// else its log cannot encode) is kept whole (`Whole`, the log's own type) in a side map
// allocated at the first, its slot's offset kEscaped (its value is still written). So a log
// reads back exactly what was pushed.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <memory>
#include <unordered_map>

#include "models/core/time.h"

namespace symsim {

template <typename Whole>
class BlockTimedRing {
 public:
  struct Slot {
    uint32_t value;
    uint32_t ps_offset;  // the time less its block's base, or kEscaped (the entry is kept whole)
  };
  static constexpr uint32_t kEscaped = ~uint32_t{0};
  static constexpr uint32_t kBlock = 512;  // entries a block of times (a power of two)
  static constexpr uint32_t kPerLine = 64 / sizeof(Slot);

  bool allocated() const { return m_items != nullptr; }
  // Capacity - 1 (a power of two; 0 before the first grow).
  uint32_t mask() const { return m_mask; }
  Slot& slot(uint32_t seq) { return m_items[seq & m_mask].slot; }
  const Slot& slot(uint32_t seq) const { return m_items[seq & m_mask].slot; }

  // The offset of `ps` from the base of `seq`'s block, the base set to `ps` first when `seq`
  // starts a block (the push of entry `seq`); kEscaped or more when it does not fit (a time
  // before the base wraps past kEscaped too).
  Ps offset_at_push(uint32_t seq, Ps ps) {
    Ps& base = base_of(seq);
    if ((seq & (kBlock - 1)) == 0) base = ps;
    return ps - base;
  }
  // Sets the base of `seq`'s block (the push of its first entry, by a log that keeps the tail's
  // base itself).
  void set_base(uint32_t seq, Ps ps) { base_of(seq) = ps; }
  // Sets every block's base (a log whose bases are all one value: the call-site index's).
  void set_all_bases(Ps base) {
    for (uint32_t k = 0; k <= m_base_mask; ++k) m_items[m_mask + 1 + k].base = base;
  }
  // The same once the block's base is set.
  Ps offset(uint32_t seq, Ps ps) const { return ps - base_of(seq); }
  // The time of entry `seq`, not kept whole.
  Ps time(uint32_t seq) const { return base_of(seq) + slot(seq).ps_offset; }

  bool kept_whole(uint32_t seq) const { return slot(seq).ps_offset == kEscaped; }
  const Whole& whole(uint32_t seq) const { return m_side->escaped.at(seq); }
  // Some of the n entries from `from` is kept whole (entries are kept whole oldest first, so the
  // newest kept whole tells).
  bool any_whole(uint32_t from, uint32_t n) const {
    return m_side != nullptr && m_side->newest_escaped - from < n;
  }

  // Keeps entry `seq` whole, oldest first; [oldest, tail): the log's live entries, `seq` among
  // them. Out of line: rare.
  [[gnu::noinline]] void keep_whole(uint32_t seq, const Whole& e, uint32_t oldest, uint32_t tail) {
    if (!m_side) m_side = std::make_unique<Side>();
    auto& escaped = m_side->escaped;
    // Entries no longer live are dropped once there are twice a ring of them (amortised O(1)).
    if (escaped.size() >= 2 * (size_t{m_mask} + 1)) {
      for (auto it = escaped.begin(); it != escaped.end();)
        it = it->first - oldest < tail - oldest ? std::next(it) : escaped.erase(it);
    }
    escaped[seq] = e;
    slot(seq).ps_offset = kEscaped;
    m_side->newest_escaped = seq;
  }

  // Out of line: doubles the ring (4 slots at first); [oldest, tail) are the log's live entries.
  // Entries keep their sequence numbers; slots and bases are copied as they are (an entry's base
  // and its whole copy are found by its sequence number, the same in both rings): the bases of
  // the live entries' blocks and the tail's (whose later entries the next pushes measure
  // against), at most capacity / kBlock + 2 blocks, within the new table's 4 * capacity / kBlock
  // (or both at most 2).
  [[gnu::noinline]] void grow(uint32_t oldest, uint32_t tail) {
    const size_t capacity = m_items ? 2 * (size_t{m_mask} + 1) : 4;
    const auto mask = static_cast<uint32_t>(capacity - 1);
    const uint32_t base_mask = base_mask_for(mask);
    // Default-initialised, not zeroed: a slot is written before it is read (the bases too,
    // where they are read: each block's is written by its first push or copied here).
    std::unique_ptr<Word[]> items(new Word[capacity + base_mask + 1]);
    if (m_items) {
      // In runs that wrap in neither ring (at most three): a copy slot by slot, each masked, was
      // 9 instructions an entry (the CQE log's doublings 15 a WQE on put-heavy).
      for (uint32_t seq = oldest; seq != tail;) {
        const uint32_t from = seq & m_mask, to = seq & mask;
        const uint32_t n = std::min({tail - seq, m_mask + 1 - from, mask + 1 - to});
        copy_words(&items[to], &m_items[from], n);
        seq += n;
      }
      // Block numbers count modulo 2^32 / kBlock, as sequence numbers do.
      const uint32_t first = oldest / kBlock, n = ((tail / kBlock - first) & (~uint32_t{0} / kBlock)) + 1;
      for (uint32_t k = first; k != first + n; ++k)
        items[capacity + (k & base_mask)].base = m_items[m_mask + 1 + (k & m_base_mask)].base;
    }
    m_items = std::move(items);
    m_mask = mask;
    m_base_mask = base_mask;
  }

 private:
  union Word {
    Slot slot;
    Ps base;
  };
  static_assert(sizeof(Word) == 8, "an entry: an eighth of a cache line");
  // Four entries a step in two 16-byte moves (SSE2, in every x86-64). Not memcpy: its large
  // copies are `rep movsb`, which callgrind counts a byte an instruction.
  // Elsewhere (no SSE2) a plain copy, the same bytes.
  static void copy_words(Word* to, const Word* from, uint32_t n) {
    uint32_t i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 2));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), a);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i + 2), b);
    }
#endif
    for (; i < n; ++i) to[i] = from[i];
  }
  static uint32_t base_mask_for(uint32_t mask) { return (mask / (kBlock / 2)) | 1u; }  // 2 * capacity / kBlock - 1
  Ps& base_of(uint32_t seq) { return m_items[m_mask + 1 + ((seq / kBlock) & m_base_mask)].base; }
  const Ps& base_of(uint32_t seq) const { return m_items[m_mask + 1 + ((seq / kBlock) & m_base_mask)].base; }

  // Entries kept whole (allocated at the first).
  struct Side {
    uint32_t newest_escaped = 0;                  // the newest entry kept whole
    std::unordered_map<uint32_t, Whole> escaped;  // by sequence number
  };

  // 24 bytes (a log's header sits in its QP's record, qp_record.h).
  std::unique_ptr<Word[]> m_items;
  std::unique_ptr<Side> m_side;
  uint32_t m_mask = 0;
  uint32_t m_base_mask = 0;
};

}  // namespace symsim
