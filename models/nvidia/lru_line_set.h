// A bounded set of cache lines in least-recently-used order, in flat arrays: 16 B per held
// line plus an open-addressing index of 4 B slots at most half full. Each GPU's L2 holds up to
// ~260 k lines; a std::list with an unordered_map cost ~72 B and two allocations per line, and
// at EP 64 that was a third of the run's memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace symsim::nv {

class LruLineSet {
 public:
  explicit LruLineSet(uint64_t capacity_lines);

  // Makes `line` the most recently used one; true when it was held already. A line not held is
  // brought in, and when the set is full the least recently used one leaves.
  bool touch(uint64_t line);
  bool holds(uint64_t line) const { return find(line) != kNone; }
  uint64_t size() const { return m_nodes.size(); }

 private:
  static constexpr uint32_t kNone = 0xffffffffu;
  struct Node {
    uint64_t line;
    uint32_t newer, older;  // neighbours in recency order (kNone at the ends)
  };

  uint32_t find(uint64_t line) const;
  size_t home(uint64_t line) const { return static_cast<size_t>((line * 0x9e3779b97f4a7c15ull) >> m_shift); }
  void index_insert(uint32_t node);
  void index_erase(uint64_t line);
  void grow_index();
  void unlink(uint32_t node);
  void push_newest(uint32_t node);

  uint64_t m_capacity;
  std::vector<Node> m_nodes;     // never more than m_capacity
  std::vector<uint32_t> m_index;  // node per slot, kNone when empty; power-of-two size
  unsigned m_shift;               // 64 - log2(index size)
  uint32_t m_newest = kNone, m_oldest = kNone;
};

}  // namespace symsim::nv
