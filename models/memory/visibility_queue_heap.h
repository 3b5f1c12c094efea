// The visibility queue's keys: one per lane with a pending write (its oldest) and one per write
// outside a lane, in a binary min-heap ordered by (time, write number). Indexed: each key knows
// its slot, so a lane's key moves in place when its oldest write lands or is forced, and a write
// forced early takes its key out at once instead of leaving a stale one behind. The order is a
// property of the keys alone (not of when they were pushed), so how often a key is re-filed
// never changes which write applies first.
#pragma once
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
  };
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // One 128-bit compare (time in the high half) instead of two branches.
  static bool before(const Key& a, const Key& b) { return rank(a) < rank(b); }

  bool empty() const { return m_keys.empty(); }
  const Key& top() const { return m_keys.front(); }
  bool contains(uint32_t id) const { return id < m_pos.size() && m_pos[id] != kAbsent; }
  // The least key after the top (one of its two children); nullptr if the top is alone.
  const Key* second() const {
    const size_t n = m_keys.size();
    if (n < 2) return nullptr;
    if (n == 2 || before(m_keys[1], m_keys[2])) return &m_keys[1];
    return &m_keys[2];
  }

  void push(const Key& k) {
    if (k.id >= m_pos.size()) m_pos.resize(k.id + 1, kAbsent);
    m_keys.push_back(k);
    sift_up(m_keys.size() - 1, k);
  }
  // The key of `id` (present) moves later: its write landed in part, or the lane's next one is keyed.
  void raise(uint32_t id, Ps t, uint64_t seq) {
    const size_t i = m_pos[id];
    sift_down(i, Key{t, seq, id});
  }
  void erase(uint32_t id) {
    const size_t i = m_pos[id];
    m_pos[id] = kAbsent;
    const Key last = m_keys.back();
    m_keys.pop_back();
    if (i == m_keys.size()) return;
    if (i > 0 && before(last, m_keys[(i - 1) / 2])) {
      sift_up(i, last);
    } else {
      sift_down(i, last);
    }
  }

 private:
  void place(size_t i, const Key& k) {
    m_keys[i] = k;
    m_pos[k.id] = static_cast<uint32_t>(i);
  }
  void sift_up(size_t i, const Key& k) {
    while (i > 0) {
      const size_t parent = (i - 1) / 2;
      if (!before(k, m_keys[parent])) break;
      place(i, m_keys[parent]);
      i = parent;
    }
    place(i, k);
  }
  // A key that moves down has usually become one of the latest (a lane's next write): walk the
  // smaller children down to a leaf, one compare per level, then back up to where it belongs.
  void sift_down(size_t i, const Key& k) {
    const size_t n = m_keys.size();
    const size_t from = i;
    for (;;) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(m_keys[child + 1], m_keys[child])) ++child;
      place(i, m_keys[child]);
      i = child;
    }
    while (i > from) {
      const size_t parent = (i - 1) / 2;
      if (!before(k, m_keys[parent])) break;
      place(i, m_keys[parent]);
      i = parent;
    }
    place(i, k);
  }
  static unsigned __int128 rank(const Key& k) { return static_cast<unsigned __int128>(k.t) << 64 | k.seq; }

  std::vector<Key> m_keys;
  std::vector<uint32_t> m_pos;  // by id: its slot in m_keys, or kAbsent
};

}  // namespace symsim
