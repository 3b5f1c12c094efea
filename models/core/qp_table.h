// Per-QP state keyed by (PE, slot, QP), looked up on every doorbell, WQE and CQE: a hash map
// (an ordered map over the ~10^5 QPs of a large run costs a cache miss per tree level).
// in_order() lists the entries sorted by (PE, slot, QP) for reports and results.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/core/observer.h"

namespace symsim {

template <typename T>
class QpTable {
 public:
  T& operator[](const QpRef& q) { return m_map[pack(q)]; }
  T* find(const QpRef& q) {
    const auto it = m_map.find(pack(q));
    return it == m_map.end() ? nullptr : &it->second;
  }
  const T* find(const QpRef& q) const {
    const auto it = m_map.find(pack(q));
    return it == m_map.end() ? nullptr : &it->second;
  }
  size_t size() const { return m_map.size(); }

  std::vector<std::pair<QpRef, const T*>> in_order() const {
    std::vector<std::pair<uint64_t, const T*>> keyed;
    keyed.reserve(m_map.size());
    for (const auto& [k, v] : m_map) keyed.emplace_back(k, &v);
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<QpRef, const T*>> out;
    out.reserve(keyed.size());
    for (const auto& [k, v] : keyed) out.emplace_back(unpack(k), v);
    return out;
  }

 private:
  // 24 bits of PE, 20 of slot (+1: -1 is "none"), 20 of QP index: key order is (PE, slot, QP).
  static uint64_t pack(const QpRef& q) {
    return uint64_t{static_cast<uint32_t>(q.pe) & 0xFFFFFFu} << 40 |
           uint64_t{static_cast<uint32_t>(q.slot + 1) & 0xFFFFFu} << 20 | (static_cast<uint32_t>(q.qp) & 0xFFFFFu);
  }
  static QpRef unpack(uint64_t k) {
    return {static_cast<int>(k >> 40), static_cast<int>((k >> 20) & 0xFFFFFu) - 1, static_cast<int>(k & 0xFFFFFu)};
  }

  std::unordered_map<uint64_t, T> m_map;
};

}  // namespace symsim
