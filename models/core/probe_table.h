// An open-addressed table from integer keys to small values (linear probing, Fibonacci hashing,
// one key value marking an empty slot) that grows and never erases: the lookups of a run that
// must not slow down as its PEs, QPs and regions grow (QpTable, AddressMap, gm_out_of_bounds).
// home() is a key's first slot, for an inline first probe; find() probes on.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace symsim {

template <typename Key, typename Value, Key kEmpty>
class ProbeTable {
 public:
  struct Slot {
    Key key = kEmpty;
    Value value{};
  };
  // Starts with 2^initial_bits slots; doubles once more than (slots >> max_fill_shift) are used
  // (1: half full, 2: a quarter).
  ProbeTable(unsigned initial_bits, unsigned max_fill_shift)
      : m_slots(size_t{1} << initial_bits), m_shift(64 - initial_bits), m_max_fill_shift(max_fill_shift) {}
  ProbeTable(const ProbeTable&) = default;
  ProbeTable& operator=(const ProbeTable&) = default;
  // A table moved from is left empty and usable (two slots).
  ProbeTable(ProbeTable&& o) noexcept { *this = std::move(o); }
  ProbeTable& operator=(ProbeTable&& o) noexcept {
    if (this == &o) return *this;
    m_slots = std::move(o.m_slots), m_shift = o.m_shift, m_max_fill_shift = o.m_max_fill_shift, m_used = o.m_used;
    o.m_slots.assign(2, Slot{}), o.m_shift = 63, o.m_used = 0;
    return *this;
  }

  const Slot& home(Key k) const { return m_slots[index_of(k)]; }
  const Value* find(Key k) const {
    const Slot& s = probe(k);
    return s.key == kEmpty ? nullptr : &s.value;
  }
  // k's value, set (k != kEmpty).
  void set(Key k, const Value& v) {
    Slot& s = const_cast<Slot&>(probe(k));
    s.value = v;
    if (s.key != kEmpty) return;
    s.key = k;
    if (++m_used > (m_slots.size() >> m_max_fill_shift)) grow();
  }
  void clear() {
    std::fill(m_slots.begin(), m_slots.end(), Slot{});
    m_used = 0;
  }
  size_t size() const { return m_used; }

 private:
  size_t index_of(Key k) const { return static_cast<size_t>((uint64_t{k} * 0x9E3779B97F4A7C15ull) >> m_shift); }
  // k's slot, or the empty one where it would go.
  const Slot& probe(Key k) const {
    const size_t mask = m_slots.size() - 1;
    size_t i = index_of(k);
    while (m_slots[i].key != kEmpty && m_slots[i].key != k) i = (i + 1) & mask;
    return m_slots[i];
  }
  void grow() {
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    --m_shift;
    for (const Slot& o : old)
      if (o.key != kEmpty) const_cast<Slot&>(probe(o.key)) = o;
  }

  std::vector<Slot> m_slots;
  unsigned m_shift = 63;
  unsigned m_max_fill_shift = 1;
  size_t m_used = 0;
};

}  // namespace symsim
