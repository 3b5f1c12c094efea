// An index from a 64-bit key to a slot of the owner's own array: open addressing with linear
// probing and no tombstones, 4 B per index slot, kept at most half full by the owner (grow()).
// The keys are not stored here: every call takes `key_of(slot)`, the key the owner keeps in
// that slot, so the index adds nothing to an owner that already holds its keys in a flat array.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace symsim {

class ProbeIndex {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  // With `run_bits`, keys that differ only in their low `run_bits` bits have neighbouring home
  // slots (for keys used in runs, such as consecutive cache lines: one index line, not one each).
  explicit ProbeIndex(unsigned bits, unsigned run_bits = 0)
      : m_slots(size_t{1} << bits, kNone), m_shift(64 - bits), m_run_bits(run_bits) {}

  size_t capacity() const { return m_slots.size(); }

  // The slot holding `key`, or kNone.
  template <class KeyOf>
  uint32_t find(uint64_t key, const KeyOf& key_of) const {
    const size_t mask = m_slots.size() - 1;
    for (size_t i = home(key);; i = (i + 1) & mask) {
      const uint32_t s = m_slots[i];
      if (s == kNone || key_of(s) == key) return s;
    }
  }

  // Adds `slot`, whose key is not in the index yet.
  template <class KeyOf>
  void insert(uint32_t slot, const KeyOf& key_of) {
    const size_t mask = m_slots.size() - 1;
    size_t i = home(key_of(slot));
    while (m_slots[i] != kNone) i = (i + 1) & mask;
    m_slots[i] = slot;
  }

  // Removes `key`, which is in the index.
  template <class KeyOf>
  void erase(uint64_t key, const KeyOf& key_of) {
    const size_t mask = m_slots.size() - 1;
    size_t hole = home(key);
    while (key_of(m_slots[hole]) != key) hole = (hole + 1) & mask;
    // Without tombstones: later entries of the run move back into the hole unless their home
    // lies cyclically after the hole (they are reachable from there already).
    for (size_t j = (hole + 1) & mask; m_slots[j] != kNone; j = (j + 1) & mask) {
      const size_t h = home(key_of(m_slots[j]));
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      m_slots[hole] = m_slots[j];
      hole = j;
    }
    m_slots[hole] = kNone;
  }

  // Twice the slots, every entry re-inserted.
  template <class KeyOf>
  void grow(const KeyOf& key_of) {
    std::vector<uint32_t> live;
    for (uint32_t s : m_slots)
      if (s != kNone) live.push_back(s);
    m_slots.assign(m_slots.size() * 2, kNone);
    --m_shift;
    for (uint32_t s : live) insert(s, key_of);
  }

  void clear() { m_slots.assign(m_slots.size(), kNone); }

 private:
  size_t home(uint64_t key) const {
    const size_t base = static_cast<size_t>(((key >> m_run_bits) * 0x9e3779b97f4a7c15ull) >> m_shift);
    return (base + (key & ((uint64_t{1} << m_run_bits) - 1))) & (m_slots.size() - 1);
  }

  std::vector<uint32_t> m_slots;  // power-of-two size
  unsigned m_shift;               // 64 - log2(size)
  unsigned m_run_bits;
};

}  // namespace symsim
