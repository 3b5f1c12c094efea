// The newest entry filed under each page, for per-page chains kept in a FIFO: an open-addressing
// table of page -> entry number, never erased from. Entries fall off the FIFO's front, so a
// number below the FIFO's first live one means "nothing filed"; such stale pages are dropped
// when the table would grow, which bounds it by the pages written while entries live.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace symsim {

class PageHeads {
 public:
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

  // The entry last set for `page`, or kNone.
  uint64_t get(uint64_t page) const {
    if (m_slots.empty()) return kNone;
    for (size_t i = home(page);; i = (i + 1) & (m_slots.size() - 1)) {
      if (m_slots[i].page == page) return m_slots[i].entry;
      if (m_slots[i].page == kEmpty) return kNone;
    }
  }
  // Sets the newest entry of `page` and returns the one it replaces (kNone, or one below
  // `first_live` when stale); entries below `first_live` may be dropped meanwhile.
  uint64_t set(uint64_t page, uint64_t entry, uint64_t first_live) {
    if (2 * (m_used + 1) > m_slots.size()) rebuild(first_live);
    for (size_t i = home(page);; i = (i + 1) & (m_slots.size() - 1)) {
      if (m_slots[i].page == page) {
        const uint64_t older = m_slots[i].entry;
        m_slots[i].entry = entry;
        return older;
      }
      if (m_slots[i].page == kEmpty) {
        m_slots[i] = {page, entry};
        ++m_used;
        return kNone;
      }
    }
  }

 private:
  static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();
  struct Slot {
    uint64_t page = kEmpty;
    uint64_t entry = kNone;
  };
  size_t home(uint64_t page) const {
    return static_cast<size_t>((page * 0x9E3779B97F4A7C15ull) >> 32) & (m_slots.size() - 1);
  }
  // Keeps the live pages only, in a table at most a quarter full. Out of line: rare, and inlined
  // it gave set()'s callers a large frame.
  [[gnu::noinline]] void rebuild(uint64_t first_live) {
    std::vector<Slot> old = std::move(m_slots);
    size_t live = 1;
    for (const Slot& s : old) live += s.page != kEmpty && s.entry != kNone && s.entry >= first_live;
    size_t size = 64;
    while (size < 4 * live) size *= 2;
    m_slots.assign(size, Slot{});
    m_used = 0;
    for (const Slot& s : old)
      if (s.page != kEmpty && s.entry != kNone && s.entry >= first_live) set(s.page, s.entry, first_live);
  }

  std::vector<Slot> m_slots;
  size_t m_used = 0;
};

}  // namespace symsim
