// The visibility queue's keys: one per lane with a pending write (its oldest) and one per write
// outside a lane, in a 4-ary min-heap ordered by (time, write number). Four children a node (96
// bytes side by side) halve the levels a key crosses, and with them the scattered writes of the
// position index: at large EP the heap holds thousands of keys (8,400 on average at MoE EP 64)
// and a unit's settle moves one key per level, each a cache miss once the heap outgrows the
// cache. Indexed: each key knows its slot, so a lane's key moves in place when its oldest write
// lands or is forced, and a write forced early takes its key out at once instead of leaving a
// stale one behind. The order is a property of the keys alone (not of when they were pushed), so
// how often a key is re-filed never changes which write applies first.
//
// The newest key is held outside the heap until another key is pushed or a settle reaches its
// time (file_due): a write that its writer forces before its time (a core's WQE copy into the SQ,
// forced within nanoseconds) then costs no heap work. A settle files the held key first when it
// is due, so a held key never bounds what a settle applies; top() and second() order the filed
// keys only.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/core/time.h"

namespace symsim {

class VisibilityHeap {
 public:
  struct Key {
    Ps t = 0;          // when the owner's next unit becomes visible
    uint64_t seq = 0;  // the owner's write number (writes are numbered as they are scheduled)
    uint32_t id = 0;   // the owner: a lane, or a write (see VisibilityQueue)
    uint32_t write = 0;  // the owner's write whose unit is next (in the key's padding: a lane's
                         // settle needs not look up the lane to find it)
  };
  static constexpr uint32_t kAbsent = UINT32_MAX;
  static constexpr uint32_t kHeld = UINT32_MAX - 1;

  // One 128-bit compare (time in the high half) instead of two branches.
  static bool before(const Key& a, const Key& b) { return rank(a) < rank(b); }

  // Filed keys only (see file_due).
  bool empty() const { return m_keys.empty(); }
  const Key& top() const { return m_keys.front(); }
  // The earliest key's time, the held one included; UINT64_MAX when there is none.
  Ps next_t() const {
    Ps t = m_keys.empty() ? UINT64_MAX : m_keys.front().t;
    return m_holding && m_held.t < t ? m_held.t : t;
  }
  bool contains(uint32_t id) const { return id < m_pos.size() && m_pos[id] != kAbsent; }
  // Files the held key if it is due at or before `t`: then top() and second() see every key due by `t`.
  void file_due(Ps t) {
    if (m_holding && m_held.t <= t) file_held();
  }
  // The least key after the top (one of its children); nullptr if the top is alone.
  const Key* second() const { return m_keys.size() < 2 ? nullptr : &m_keys[least_child(0)]; }
  size_t size() const { return m_keys.size(); }

  // A burst: many filed keys due at once (a settle that lands a round of every QP's data and
  // CQE). Popping them one by one sifts each owner's next key from the root to a leaf; taking
  // them out together, sorted, and filing the next keys back in one heapify does the same
  // ordering work with fewer compares and moves. The order of the keys is unchanged: it is a
  // property of the keys alone.
  //
  // No burst is looked for in a heap larger than this: rebuilding the rest would cost more than
  // sifting the few keys due.
  static constexpr size_t kMaxBurstHeap = 256;
  // True when the top and all its children are due at `t`: a cheap sign of a burst, before
  // count_due's pass (a settle with a few keys due among many does not pay for that pass).
  bool top_children_due(Ps t) const {
    if (m_keys.size() < 1 + kArity) return false;
    for (size_t c = 1; c <= kArity; ++c)
      if (m_keys[c].t > t) return false;
    return true;
  }
  // How many filed keys are due at or before `t` (a pass over them all: a small heap only).
  size_t count_due(Ps t) const {
    size_t n = 0;
    for (const Key& k : m_keys) n += k.t <= t;
    return n;
  }
  // A heap put back sorted (put_back_sorted) and untouched since is still a sorted array, and
  // then the keys due are its first ones, least first. How many are due at or before `t` when
  // the keys are sorted (one pass, in place of count_due's); kUnsorted when they are not.
  static constexpr size_t kUnsorted = SIZE_MAX;
  size_t sorted_due(Ps t) const {
    const size_t size = m_keys.size();
    size_t due = size;
    for (size_t i = 0; i < size; ++i) {
      if (i > 0 && before(m_keys[i], m_keys[i - 1])) return kUnsorted;
      if (m_keys[i].t > t && due == size) due = i;
    }
    return due;
  }
  // take_due for sorted keys, `due` of them due (sorted_due): no pass that compacts, no rebuild,
  // no sort. Unlike take_due, the owners keep their stale positions until put back (put_back,
  // put_back_sorted), or forget: the caller forgets each owner it does not put back.
  void take_sorted_due(size_t due, std::vector<Key>& out) {
    if (due == m_keys.size()) {  // all of them (put-heavy's rounds): the array itself
      out.swap(m_keys);
      m_keys.clear();
      return;
    }
    out.assign(m_keys.begin(), m_keys.begin() + static_cast<std::ptrdiff_t>(due));
    m_keys.erase(m_keys.begin(), m_keys.begin() + static_cast<std::ptrdiff_t>(due));
    for (size_t i = 0; i < m_keys.size(); ++i) m_pos[m_keys[i].id] = static_cast<uint32_t>(i);
  }
  // Takes the filed keys due at or before `t` out, least first, into `out`; their owners are
  // absent until put back. The rest stay a heap.
  void take_due(Ps t, std::vector<Key>& out) {
    out.clear();
    size_t n = 0;
    for (size_t i = 0; i < m_keys.size(); ++i) {
      if (m_keys[i].t <= t) {
        out.push_back(m_keys[i]);
        m_pos[m_keys[i].id] = kAbsent;
      } else {
        m_keys[n++] = m_keys[i];
      }
    }
    m_keys.resize(n);
    heapify();
    std::sort(out.begin(), out.end(), [](const Key& a, const Key& b) { return before(a, b); });
  }
  // A key taken out whose owner is not put back (its last write landed).
  void forget(uint32_t id) { m_pos[id] = kAbsent; }
  // Files keys taken out (or their owners' next keys) again.
  void put_back(const Key* first, const Key* last) {
    const size_t count = static_cast<size_t>(last - first);
    if (count == 0) return;
    if (4 * count < m_keys.size()) {  // few: a sift up each
      for (; first != last; ++first) {
        m_keys.push_back(*first);
        sift_up(m_keys.size() - 1, *first);
      }
      return;
    }
    m_keys.insert(m_keys.end(), first, last);
    heapify();
  }

  // Files `keys`, least first, into an empty heap: a sorted array is a heap as it stands, and
  // sorted_due finds it sorted at the next burst if nothing moved it meanwhile. The array itself
  // becomes the heap's (`keys` is left empty, with the heap's old buffer).
  void put_back_sorted(std::vector<Key>& keys) {
    m_keys.swap(keys);
    keys.clear();
    for (size_t i = 0; i < m_keys.size(); ++i) m_pos[m_keys[i].id] = static_cast<uint32_t>(i);
  }

  void push(const Key& k) {
    if (k.id >= m_pos.size()) m_pos.resize(k.id + 1, kAbsent);
    if (m_holding) file_held();
    m_held = k;
    m_holding = true;
    m_pos[k.id] = kHeld;
  }
  // The key of `id` (present) moves later: its write landed in part, or the lane's next one is keyed.
  void raise(uint32_t id, Ps t, uint64_t seq, uint32_t write) {
    const size_t i = m_pos[id];
    if (i == kHeld) {
      m_held = Key{t, seq, id, write};
      return;
    }
    sift_down(i, Key{t, seq, id, write});
  }
  void erase(uint32_t id) {
    const size_t i = m_pos[id];
    m_pos[id] = kAbsent;
    if (i == kHeld) {
      m_holding = false;
      return;
    }
    const Key last = m_keys.back();
    m_keys.pop_back();
    if (i == m_keys.size()) return;
    if (i > 0 && before(last, m_keys[parent(i)])) {
      sift_up(i, last);
    } else {
      sift_down(i, last);
    }
  }

 private:
  void file_held() {
    m_holding = false;
    m_keys.push_back(m_held);
    sift_up(m_keys.size() - 1, m_held);
  }
  void place(size_t i, const Key& k) {
    m_keys[i] = k;
    m_pos[k.id] = static_cast<uint32_t>(i);
  }
  static size_t parent(size_t i) { return (i - 1) / kArity; }
  // Floyd's bottom-up build: each node with children sifted down, last first.
  void heapify() {
    for (size_t i = 0; i < m_keys.size(); ++i) m_pos[m_keys[i].id] = static_cast<uint32_t>(i);
    if (m_keys.size() < 2) return;
    for (size_t i = parent(m_keys.size() - 1) + 1; i-- > 0;) {
      const Key k = m_keys[i];  // a copy: the sift overwrites the slot
      sift_down(i, k);
    }
  }
  // The least of node i's children (it has at least one); a node with all four: two pairs, then
  // their winners.
  size_t least_child(size_t i) const {
    const size_t first = kArity * i + 1;
    const size_t end = std::min(first + kArity, m_keys.size());
    if (end == first + kArity) {
      const size_t a = before(m_keys[first + 1], m_keys[first]) ? first + 1 : first;
      const size_t b = before(m_keys[first + 3], m_keys[first + 2]) ? first + 3 : first + 2;
      return before(m_keys[b], m_keys[a]) ? b : a;
    }
    size_t least = first;
    for (size_t c = first + 1; c < end; ++c)
      if (before(m_keys[c], m_keys[least])) least = c;
    return least;
  }
  void sift_up(size_t i, const Key& k) {
    while (i > 0) {
      const size_t p = parent(i);
      if (!before(k, m_keys[p])) break;
      place(i, m_keys[p]);
      i = p;
    }
    place(i, k);
  }
  // Top-down, stopping where the key belongs: a raised key (a lane's next unit, a few ns later)
  // mostly stays in the upper levels, which are in cache; the leaves are not.
  void sift_down(size_t i, const Key& k) {
    const size_t n = m_keys.size();
    while (kArity * i + 1 < n) {
      const size_t c = least_child(i);
      if (!before(m_keys[c], k)) break;
      place(i, m_keys[c]);
      i = c;
    }
    place(i, k);
  }
  static unsigned __int128 rank(const Key& k) { return static_cast<unsigned __int128>(k.t) << 64 | k.seq; }

  static constexpr size_t kArity = 4;
  std::vector<Key> m_keys;
  std::vector<uint32_t> m_pos;  // by id: its slot in m_keys, kHeld or kAbsent
  Key m_held;
  bool m_holding = false;
};

}  // namespace symsim
