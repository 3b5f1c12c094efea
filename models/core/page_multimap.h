// Values filed under pages (4 KiB, or any unit the caller divides by), for indexes updated and
// searched on every write: pending writes and streams by page, readers asleep on a page, core
// writes since a barrier. An open-addressing table of pages, each holding a doubly linked list
// of nodes kept in one pool: once warm it allocates nothing, a lookup touches one table slot and
// the page's own nodes, for_each visits a page's values newest first, and erase searches from the
// oldest, since the value leaving is nearly always the oldest under its page (a CQ ring page, a
// source buffer): O(1) however many values that page holds.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace symsim {

template <typename T>
class PageMultimap {
 public:
  static constexpr uint64_t kPageBytes = 4096;
  static uint64_t page_of(const void* p) { return reinterpret_cast<uintptr_t>(p) / kPageBytes; }

  void insert(uint64_t page, const T& value) {
    if (2 * (m_used + 1) > m_slots.size()) grow();
    Slot& s = m_slots[find_or_add(page)];
    const uint32_t n = new_node(value, s.newest);
    if (s.newest != kNil) m_nodes[s.newest].newer = n;
    s.newest = n;
    if (s.oldest == kNil) s.oldest = n;
  }

  // Removes the oldest entry equal to `value` under `page` (no-op if there is none).
  void erase(uint64_t page, const T& value) {
    const size_t i = find(page);
    if (i == kMissing) return;
    Slot& s = m_slots[i];
    uint32_t n = s.oldest;
    while (n != kNil && !(m_nodes[n].value == value)) n = m_nodes[n].newer;
    if (n == kNil) return;
    const Node& node = m_nodes[n];
    (node.older != kNil ? m_nodes[node.older].newer : s.oldest) = node.newer;
    (node.newer != kNil ? m_nodes[node.newer].older : s.newest) = node.older;
    m_nodes[n].newer = m_free;
    m_free = n;
    if (s.newest == kNil) remove_slot(i);
  }

  // Calls fn(value) for each entry under `page`, newest first; fn must not change the index.
  template <typename Fn>
  void for_each(uint64_t page, Fn fn) const {
    const size_t i = find(page);
    if (i == kMissing) return;
    for (uint32_t n = m_slots[i].newest; n != kNil; n = m_nodes[n].older) fn(m_nodes[n].value);
  }

  bool empty() const { return m_used == 0; }
  void clear() {
    m_slots.clear();
    m_nodes.clear();
    m_used = 0;
    m_free = kNil;
  }

 private:
  static constexpr uint32_t kNil = std::numeric_limits<uint32_t>::max();
  static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();
  static constexpr size_t kMissing = std::numeric_limits<size_t>::max();
  struct Slot {
    uint64_t page = kEmpty;
    uint32_t newest = kNil;
    uint32_t oldest = kNil;
  };
  struct Node {
    T value;
    uint32_t older;
    uint32_t newer;  // also the free list's link
  };

  size_t home(uint64_t page) const {
    return static_cast<size_t>((page * 0x9E3779B97F4A7C15ull) >> 32) & (m_slots.size() - 1);
  }
  size_t find(uint64_t page) const {
    if (m_slots.empty()) return kMissing;
    for (size_t i = home(page);; i = (i + 1) & (m_slots.size() - 1)) {
      if (m_slots[i].page == page) return i;
      if (m_slots[i].page == kEmpty) return kMissing;
    }
  }
  size_t find_or_add(uint64_t page) {
    for (size_t i = home(page);; i = (i + 1) & (m_slots.size() - 1)) {
      if (m_slots[i].page == page) return i;
      if (m_slots[i].page == kEmpty) {
        m_slots[i].page = page;
        ++m_used;
        return i;
      }
    }
  }
  // Backward-shift deletion keeps every remaining page reachable from its home slot.
  void remove_slot(size_t i) {
    const size_t mask = m_slots.size() - 1;
    m_slots[i] = Slot{};
    --m_used;
    for (size_t j = (i + 1) & mask; m_slots[j].page != kEmpty; j = (j + 1) & mask) {
      const size_t h = home(m_slots[j].page);
      const bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
      if (!movable) continue;
      m_slots[i] = m_slots[j];
      m_slots[j] = Slot{};
      i = j;
    }
  }
  void grow() {
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    m_used = 0;
    for (const Slot& s : old) {
      if (s.page == kEmpty) continue;
      Slot& moved = m_slots[find_or_add(s.page)];
      moved.newest = s.newest;
      moved.oldest = s.oldest;
    }
  }
  uint32_t new_node(const T& value, uint32_t older) {
    if (m_free != kNil) {
      const uint32_t n = m_free;
      m_free = m_nodes[n].newer;
      m_nodes[n] = Node{value, older, kNil};
      return n;
    }
    m_nodes.push_back(Node{value, older, kNil});
    return static_cast<uint32_t>(m_nodes.size() - 1);
  }

  std::vector<Slot> m_slots;
  size_t m_used = 0;
  std::vector<Node> m_nodes;
  uint32_t m_free = kNil;
};

}  // namespace symsim
