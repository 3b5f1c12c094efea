// Per-QP state keyed by (PE, slot, QP), looked up on every doorbell, WQE and CQE: a hash table
// (an ordered map over the ~10^5 QPs of a large run costs a cache miss per tree level). The
// entries sit in a deque (they never move) behind an open-addressed index of (key, entry):
// std::unordered_map's lookup divided by the bucket count and went through the previous node of
// the chain, a second cache miss per lookup once the QPs outgrow the caches (EP 256: 131,072).
// in_order() lists the entries sorted by (PE, slot, QP) for reports and results. The QPs
// looked up last sit in a small direct-mapped cache in front of the map (the events of a run
// come from a few QPs at a time): a hit costs a multiply and a compare instead of a hash lookup.
// 64 entries: with 32, put-heavy's 32 QPs collided (0.3 map lookups per WQE); 128 spread the
// lookups over twice the cache lines (2.7 more L1d misses per WQE in cachegrind).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <tuple>
#include <utility>
#include <vector>

#include "models/core/probe_table.h"
#include "models/core/observer.h"

namespace symsim {

// A QP's key in a QpTable: 24 bits of PE, 20 of slot (+1: -1 is "none"), 20 of QP index: key
// order is (PE, slot, QP). qp_of_table_key gives the QpRef back within those widths.
inline uint64_t qp_table_key(const QpRef& q) {
  return uint64_t{static_cast<uint32_t>(q.pe) & 0xFFFFFFu} << 40 |
         uint64_t{static_cast<uint32_t>(q.slot + 1) & 0xFFFFFu} << 20 | (static_cast<uint32_t>(q.qp) & 0xFFFFFu);
}
inline QpRef qp_of_table_key(uint64_t k) {
  return {static_cast<int>(k >> 40), static_cast<int>((k >> 20) & 0xFFFFFu) - 1, static_cast<int>(k & 0xFFFFFu)};
}

template <typename T>
class QpTable {
 public:
  QpTable() = default;
  // A copy indexes its own entries (the index and the cache point at entries).
  QpTable(const QpTable& o) : m_entries(o.m_entries) { reindex(); }
  QpTable& operator=(const QpTable& o) {
    if (this != &o) {
      m_entries = o.m_entries;
      reindex();
      m_recent = Recent{};
    }
    return *this;
  }
  QpTable(QpTable&&) = default;  // the deque's entries stay where they are
  QpTable& operator=(QpTable&&) = default;
  T& operator[](const QpRef& q) {
    const uint64_t k = pack(q);
    typename Recent::Entry& e = m_recent.at(k);
    if (e.value && e.key == k) return *e.value;
    return insert(k, e);
  }
  T* find(const QpRef& q) { return lookup(pack(q)); }
  const T* find(const QpRef& q) const { return lookup(pack(q)); }
  size_t size() const { return m_entries.size(); }

  std::vector<std::pair<QpRef, const T*>> in_order() const {
    std::vector<std::pair<uint64_t, const T*>> keyed;
    keyed.reserve(m_entries.size());
    for (const auto& [k, v] : m_entries) keyed.emplace_back(k, &v);
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<QpRef, const T*>> out;
    out.reserve(keyed.size());
    for (const auto& [k, v] : keyed) out.emplace_back(unpack(k), v);
    return out;
  }

  // qp_table_key. Public for caches in front of the table (CheckerSet::Hub's).
  static uint64_t pack(const QpRef& q) { return qp_table_key(q); }

 private:
  static QpRef unpack(uint64_t k) { return qp_of_table_key(k); }

  T* lookup(uint64_t k) const {
    typename Recent::Entry& e = m_recent.at(k);
    if (e.value && e.key == k) return e.value;
    return find_in_map(k, e);
  }
  // Entries point into m_entries, whose elements never move (the table never erases); a copied
  // or moved table starts with an empty cache.
  struct Recent {
    struct Entry {
      uint64_t key = 0;
      T* value = nullptr;
    };
    std::array<Entry, 64> entries{};
    Recent() = default;
    Recent(const Recent&) {}
    Recent& operator=(const Recent&) {
      entries = {};
      return *this;
    }
    Entry& at(uint64_t key) { return entries[(key * 0x9E3779B97F4A7C15ull) >> 58]; }
  };

  // The index's part, out of line: inlined, a hit in the cache saved and restored six registers
  // for it (about 20 of a hit's 45 instructions).
  __attribute__((noinline)) T& insert(uint64_t k, typename Recent::Entry& e) {
    T* const* found = m_index.find(k);
    T* v = found ? *found
                 : &m_entries.emplace_back(std::piecewise_construct, std::forward_as_tuple(k), std::forward_as_tuple()).second;
    if (!found) m_index.set(k, v);
    e = {k, v};
    return *v;
  }
  __attribute__((noinline)) T* find_in_map(uint64_t k, typename Recent::Entry& e) const {
    T* const* found = m_index.find(k);
    if (!found) return nullptr;
    e = {k, *found};
    return *found;
  }
  void reindex() {
    m_index = Index(6, 1);
    for (auto& [k, v] : m_entries) m_index.set(k, &v);
  }

  // Key -> entry, at most half full. (No key is all ones: that takes PE -1 with slot 1,048,574.)
  using Index = ProbeTable<uint64_t, T*, UINT64_MAX>;
  std::deque<std::pair<uint64_t, T>> m_entries;  // in order of first lookup
  Index m_index{6, 1};
  mutable Recent m_recent;
};

}  // namespace symsim
