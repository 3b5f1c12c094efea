// A bounded list of address ranges with a payload each, oldest evicted first, answering
// "which kept ranges overlap [begin, end)" in (begin, insertion) order. Ranges live in one ring
// and are filed by 4 KiB page (PageMultimap): once warm an add or an eviction allocates
// nothing and costs one index insert or erase per page the range covers, and a query looks at
// the ranges filed under its own pages only. Ids stay valid until evicted.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/checkers/ring_fifo.h"
#include "models/core/page_multimap.h"

namespace symsim {

template <typename T>
class IntervalList {
 public:
  explicit IntervalList(size_t capacity = 8192) : m_capacity(capacity) {}

  size_t add(uint64_t begin, uint64_t end, T value) {
    size_t id;
    emplace(begin, end, &id) = std::move(value);
    return id;
  }
  // Adds [begin, end) with a default value and returns it to be filled in place.
  T& emplace(uint64_t begin, uint64_t end, size_t* id_out = nullptr) {
    if (m_items.size() == m_capacity) evict();
    const size_t id = m_first_id + m_items.size();
    Item& item = m_items.emplace_back();
    item.begin = begin;
    item.end = end;
    item.value = T{};
    const auto [first, last] = pages(begin, end);
    for (uint64_t p = first; p <= last; ++p) m_by_page.insert(p, id);
    if (id_out) *id_out = id;
    return item.value;
  }
  const T* get(size_t id) const {
    if (id < m_first_id || id >= m_first_id + m_items.size()) return nullptr;
    return &m_items[id - m_first_id].value;
  }
  // Calls fn(id, const T&) for each kept range overlapping [begin, end), by begin, then oldest
  // first (a range of no bytes overlaps a query that strictly contains its address).
  template <typename Fn>
  void overlapping(uint64_t begin, uint64_t end, Fn fn) const {
    m_found.clear();
    const auto [first, last] = pages(begin, end);
    for (uint64_t p = first; p <= last; ++p) {
      m_by_page.for_each(p, [&](size_t id) {
        const Item& item = m_items[id - m_first_id];
        if (item.begin < end && item.end > begin) m_found.emplace_back(item.begin, id);
      });
    }
    std::sort(m_found.begin(), m_found.end());
    if (first != last) m_found.erase(std::unique(m_found.begin(), m_found.end()), m_found.end());
    for (const auto& [b, id] : m_found) fn(id, m_items[id - m_first_id].value);
  }

 private:
  struct Item {
    uint64_t begin = 0, end = 0;
    T value{};
  };
  // The pages [begin, end) covers; a range of no bytes is filed under the page of its address.
  static std::pair<uint64_t, uint64_t> pages(uint64_t begin, uint64_t end) {
    const uint64_t kPage = PageMultimap<size_t>::kPageBytes;
    return {begin / kPage, (end > begin ? end - 1 : begin) / kPage};
  }
  void evict() {
    const Item& old = m_items.front();
    const auto [first, last] = pages(old.begin, old.end);
    for (uint64_t p = first; p <= last; ++p) m_by_page.erase(p, m_first_id);
    m_items.pop_front();
    ++m_first_id;
  }

  size_t m_capacity;
  RingFifo<Item> m_items;
  size_t m_first_id = 0;
  PageMultimap<size_t> m_by_page;
  mutable std::vector<std::pair<uint64_t, size_t>> m_found;  // scratch for one query
};

}  // namespace symsim
