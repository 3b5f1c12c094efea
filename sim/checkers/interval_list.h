// A bounded list of address ranges with a payload each, oldest evicted first, answering
// "which kept ranges overlap [begin, end)" in (begin, insertion) order. Ranges live in one ring
// and are filed by 4 KiB page: each page a range covers gets a filing in a second ring, linked
// to the page's previous filing, and PageHeads keeps each page's newest. Ranges and filings
// leave in the order they came, so an eviction only drops ring fronts (no index erase), filing
// costs one table probe per page, and a query walks its own pages' chains until they reach an
// evicted filing. Nothing is allocated once warm. Ids stay valid until evicted, and a later add
// has a larger id.
// Ranges are filed when a query comes, not when they are added (the ranges added since the last
// query, in id order, those evicted meanwhile never): flag_before_data adds a landing per WQE,
// and a run whose cores read no landed data (put-heavy) files none. The chains a query walks
// hold the same live ranges in the same order either way.
// A payload that knows its own range (`static constexpr bool kKeepsRange = true` with begin()
// and end()) is kept alone, without a copy of the bounds: flag_before_data's 64-byte landing is
// one cache line per WQE, not two (each add touches its entry's line, a miss by the next add).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/checkers/page_heads.h"
#include "sim/checkers/ring_fifo.h"

namespace symsim {

namespace interval_list_detail {
template <typename T, typename = void>
struct KeepsRange : std::false_type {};
template <typename T>
struct KeepsRange<T, std::void_t<decltype(T::kKeepsRange)>> : std::bool_constant<T::kKeepsRange> {};

// A range and its payload.
template <typename T, bool kOwn = KeepsRange<T>::value>
struct Item {
  uint64_t b = 0, e = 0;
  T value{};
  Item() = default;
  Item(uint64_t begin, uint64_t end, T v) : b(begin), e(end), value(std::move(v)) {}
  uint64_t begin() const { return b; }
  uint64_t end() const { return e; }
};
// A payload that carries its range: [begin, end) given to add must be its own.
template <typename T>
struct Item<T, true> {
  T value{};
  Item() = default;
  Item(uint64_t, uint64_t, T v) : value(std::move(v)) {}
  uint64_t begin() const { return value.begin(); }
  uint64_t end() const { return value.end(); }
};
}  // namespace interval_list_detail

template <typename T>
class IntervalList {
 public:
  explicit IntervalList(size_t capacity = 8192) : m_capacity(capacity) {
    size_t slots = 1;
    while (slots < capacity) slots *= 2;
    m_mask = slots - 1;
  }

  // The range goes into the slot of its id (ids are consecutive: id & m_mask), so a push keeps
  // no head or size and tests no growth (one per WQE in flag_before_data).
  size_t add(uint64_t begin, uint64_t end, const T& value) {
    if (!m_items) m_items.reset(new Item[m_mask + 1]);
    if (m_next_id - m_first_id == m_capacity) evict();
    const size_t id = m_next_id++;
    m_items[id & m_mask] = Item(begin, end, value);
    return id;  // filed by the next query (file_added)
  }
  const T* get(size_t id) const {
    if (id < m_first_id || id >= m_next_id) return nullptr;
    return &m_items[id & m_mask].value;
  }
  // Calls fn(id, const T&) for each kept range overlapping [begin, end), by begin, then oldest
  // first (a range of no bytes overlaps a query that strictly contains its address).
  template <typename Fn>
  void overlapping(uint64_t begin, uint64_t end, Fn fn) const {
    if (m_filed_id != m_next_id) file_added();
    m_found.clear();
    const auto [first, last] = pages(begin, end);
    for (uint64_t p = first; p <= last; ++p) {
      for (uint64_t n = m_newest.get(p); n != PageHeads::kNone && n >= m_first_filing;) {
        const Filing& f = m_filings[n - m_first_filing];
        const Item& item = m_items[f.id & m_mask];
        if (item.begin() < end && item.end() > begin) m_found.emplace_back(item.begin(), f.id);
        n = f.older;
      }
    }
    std::sort(m_found.begin(), m_found.end());
    if (first != last) m_found.erase(std::unique(m_found.begin(), m_found.end()), m_found.end());
    for (const auto& [b, id] : m_found) fn(id, m_items[id & m_mask].value);
  }

 private:
  using Item = interval_list_detail::Item<T>;
  struct Filing {
    size_t id = 0;                    // the range filed
    uint64_t older = PageHeads::kNone;  // the page's previous filing
  };
  // The pages [begin, end) covers; a range of no bytes is filed under the page of its address.
  static std::pair<uint64_t, uint64_t> pages(uint64_t begin, uint64_t end) {
    constexpr uint64_t kPage = 4096;
    return {begin / kPage, (end > begin ? end - 1 : begin) / kPage};
  }
  void evict() {
    if (m_first_id < m_filed_id) {  // filed: the oldest filings are its own
      const Item& old = m_items[m_first_id & m_mask];
      const auto [first, last] = pages(old.begin(), old.end());
      m_filings.drop_front(last - first + 1);
      m_first_filing += last - first + 1;
    } else {
      m_filed_id = m_first_id + 1;  // never filed, and never will be
    }
    ++m_first_id;
  }
  // Files the ranges added since the last query, oldest first: the filings (and the pages'
  // chains) come out as if each had been filed when added, less those already evicted.
  // Out of line: once per query that follows adds.
  [[gnu::noinline]] void file_added() const {
    for (size_t id = m_filed_id; id != m_next_id; ++id) {
      const Item& item = m_items[id & m_mask];
      const auto [first, last] = pages(item.begin(), item.end());
      for (uint64_t p = first; p <= last; ++p) {
        const uint64_t seq = m_first_filing + m_filings.size();
        m_filings.emplace_back(Filing{id, m_newest.set(p, seq, m_first_filing)});
      }
    }
    m_filed_id = m_next_id;
  }

  size_t m_capacity;
  // Ranges [m_first_id, m_next_id), range `id` at m_items[id & m_mask] (allocated at the
  // first add: a power of two at least the capacity).
  std::unique_ptr<Item[]> m_items;
  size_t m_mask = 0;
  size_t m_first_id = 0;
  size_t m_next_id = 0;
  // The index by page, brought up to date by a query (file_added): ranges [m_first_id,
  // m_filed_id) are filed, [m_filed_id, m_next_id) not yet.
  mutable size_t m_filed_id = 0;
  mutable RingFifo<Filing> m_filings;
  mutable uint64_t m_first_filing = 0;  // the sequence number of m_filings' front
  mutable PageHeads m_newest;           // page -> its newest filing
  mutable std::vector<std::pair<uint64_t, size_t>> m_found;  // scratch for one query
};

}  // namespace symsim
