// A bounded list of address ranges with a payload each, oldest evicted first, answering
// "which kept ranges overlap [begin, end)" in O(log n + hits). Ids stay valid until evicted.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>

namespace symsim {

template <typename T>
class IntervalList {
 public:
  explicit IntervalList(size_t capacity = 8192) : m_capacity(capacity) {}

  size_t add(uint64_t begin, uint64_t end, T value) {
    const size_t id = m_first_id + m_items.size();
    m_items.push_back({begin, end, std::move(value)});
    m_by_begin.emplace(begin, id);
    m_max_len = std::max(m_max_len, end - begin);
    if (m_items.size() > m_capacity) evict();
    return id;
  }
  const T* get(size_t id) const {
    if (id < m_first_id || id >= m_first_id + m_items.size()) return nullptr;
    return &m_items[id - m_first_id].value;
  }
  // Calls fn(id, const T&) for each kept range overlapping [begin, end).
  template <typename Fn>
  void overlapping(uint64_t begin, uint64_t end, Fn fn) const {
    const uint64_t from = begin > m_max_len ? begin - m_max_len : 0;
    for (auto it = m_by_begin.lower_bound(from); it != m_by_begin.end() && it->first < end; ++it) {
      const Item& item = m_items[it->second - m_first_id];
      if (item.end > begin) fn(it->second, item.value);
    }
  }

 private:
  struct Item {
    uint64_t begin, end;
    T value;
  };
  void evict() {
    const Item& old = m_items.front();
    auto range = m_by_begin.equal_range(old.begin);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second == m_first_id) {
        m_by_begin.erase(it);
        break;
      }
    m_items.pop_front();
    ++m_first_id;
  }

  size_t m_capacity;
  std::deque<Item> m_items;
  size_t m_first_id = 0;
  std::multimap<uint64_t, size_t> m_by_begin;
  uint64_t m_max_len = 0;
};

}  // namespace symsim
