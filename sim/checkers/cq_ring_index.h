// The CQ rings by address, for CompletionKnowledge's question on every GM read: is this a CQE
// slot, and of which QP? The answer is the map's (the ring with the greatest base at or below the
// address, if the address is inside it), found through the 2 MiB chunk: each chunk met is
// classed once as holding no ring, one ring, or several, so a read outside the rings (most of
// them) or in a chunk of one ring costs one probe, not a walk of a tree of all QPs' rings
// (131,072 at EP 256: 17 levels, a cache miss each). A ring added later re-classes the chunks it
// covers that were met. 2 MiB: a UDMA CQ ring is 2 MiB (32,768 CQEs of 64 B) and a PE's rings lie
// end to end, SQ then CQ, so a chunk holds at most one CQ ring whatever the rings' alignment, and
// adding one re-classes two or three chunks (64 KiB chunks made it 33 probes per QP).
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "models/core/probe_table.h"

namespace symsim {

template <typename Owner>
class CqRingIndex {
 public:
  struct Ring {
    uintptr_t base = 0;
    uint64_t bytes = 0;
    Owner* owner = nullptr;
  };
  bool empty() const { return m_rings.empty(); }
  size_t chunks_met() const { return m_chunks.size(); }
  // Adds (or replaces) the ring at `base`: `bytes` long, `owner`'s.
  void add(uintptr_t base, uint64_t bytes, Owner* owner) {
    auto [it, fresh] = m_rings.emplace(base, static_cast<uint32_t>(m_list.size()));
    if (fresh) {
      m_list.push_back({base, bytes, owner});
    } else {
      forget(base, m_list[it->second].bytes);  // its old extent's chunks
      m_list[it->second] = {base, bytes, owner};
    }
    // The chunks whose answer may change: the ring's own; those where the ring before it reached
    // past its base (now shadowed by it: the map asks the nearest base below); and the chunk of
    // the next ring's base, whose addresses before that base now ask this ring. (Rings of real
    // QPs never overlap; the map's answer is kept for any rings.)
    uint64_t reach = bytes;
    if (it != m_rings.begin()) {
      const Ring& before = m_list[std::prev(it)->second];
      if (before.base + before.bytes > base) reach = std::max<uint64_t>(reach, before.base + before.bytes - base);
    }
    forget(base, reach);
    if (const auto next = std::next(it); next != m_rings.end()) forget(next->first, 1);
  }
  // The ring whose base is the greatest at or below `a`, if `a` is inside it; else null.
  const Ring* find(uintptr_t a) const {
    const uint64_t chunk = a >> kChunkShift;
    if (chunk >= kEmptyKey) return in_ring(predecessor(a), a);  // past 2^53: not kept (none in user space)
    const uint32_t* c = m_chunks.find(static_cast<uint32_t>(chunk));
    const uint32_t cls = c && *c != kStale ? *c : classify(static_cast<uint32_t>(chunk));
    if (cls == kNone) return nullptr;
    if (cls == kSeveral) return in_ring(predecessor(a), a);
    return in_ring(&m_list[cls], a);
  }

 private:
  static constexpr unsigned kChunkShift = 21;
  static constexpr uint32_t kEmptyKey = UINT32_MAX;
  static constexpr uint32_t kNone = UINT32_MAX, kSeveral = UINT32_MAX - 1, kStale = UINT32_MAX - 2;

  static const Ring* in_ring(const Ring* r, uintptr_t a) {
    return r && a - r->base < r->bytes ? r : nullptr;
  }
  const Ring* predecessor(uintptr_t a) const {
    auto it = m_rings.upper_bound(a);
    return it == m_rings.begin() ? nullptr : &m_list[std::prev(it)->second];
  }
  // The chunk's class from the map: no ring reaches it, one ring does and no other begins before
  // it inside the chunk (so every address of the chunk gets that ring or none from the map), or
  // several.
  uint32_t classify(uint32_t chunk) const {
    const uintptr_t begin = uintptr_t{chunk} << kChunkShift, end = begin + (uintptr_t{1} << kChunkShift);
    auto it = m_rings.upper_bound(end - 1);  // first ring beginning at or past the chunk's end
    uint32_t cls = kNone;
    if (it != m_rings.begin()) {
      const auto last = std::prev(it);  // greatest base below the chunk's end
      const Ring& r = m_list[last->second];
      if (r.base + r.bytes > begin) {
        cls = last->second;
        if (r.base > begin && last != m_rings.begin()) {  // addresses before it ask its predecessor
          const Ring& p = m_list[std::prev(last)->second];
          if (p.base >= begin || p.base + p.bytes > begin) cls = kSeveral;
        }
      }
    }
    m_chunks.set(chunk, cls);
    return cls;
  }
  // The chunks of [begin, begin + bytes), where met, are classed again on their next lookup.
  void forget(uintptr_t begin, uint64_t bytes) {
    if (bytes == 0) return;
    for (uint64_t c = begin >> kChunkShift; c <= (begin + bytes - 1) >> kChunkShift && c < kEmptyKey; ++c)
      if (m_chunks.find(static_cast<uint32_t>(c))) m_chunks.set(static_cast<uint32_t>(c), kStale);
  }

  std::map<uintptr_t, uint32_t> m_rings;  // base -> index in m_list
  std::vector<Ring> m_list;
  // Chunk -> class (kNone, kSeveral, or a ring's index); kStale: classify again. 8-byte slots:
  // a 2 MiB chunk of a 48-bit address fits 27 bits (EP 256 meets a few hundred thousand chunks).
  mutable ProbeTable<uint32_t, uint32_t, kEmptyKey> m_chunks{10, 1};
};

}  // namespace symsim
