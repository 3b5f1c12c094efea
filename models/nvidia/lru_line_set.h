// A bounded set of cache lines in least-recently-used order, in flat arrays: 16 B per held
// line plus an open-addressing index of 4 B slots at most half full. Each GPU's L2 holds up to
// ~260 k lines; a std::list with an unordered_map cost ~72 B and two allocations per line, and
// at EP 64 that was a third of the run's memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/core/probe_index.h"

namespace symsim::nv {

class LruLineSet {
 public:
  explicit LruLineSet(uint64_t capacity_lines);

  // Makes `line` the most recently used one; true when it was held already. A line not held is
  // brought in, and when the set is full the least recently used one leaves. `write`: the line
  // is dirty from now on (until it leaves); a dirty line leaving counts in dirty_evictions().
  bool touch(uint64_t line, bool write = false);
  bool holds(uint64_t line) const { return find(line) != kNone; }
  uint64_t size() const { return m_nodes.size(); }
  // The `n` least recently used lines leave (all of them when n >= size()).
  void drop_oldest(uint64_t n);
  // How many dirty lines have left the set so far (written back to memory on the GPU).
  uint64_t dirty_evictions() const { return m_dirty_evictions; }
  // Whether a held line was read (mark_read) since it came in or was last written; a line not
  // held was not. mark_read on a line not held does nothing.
  bool read_since_write(uint64_t line) const {
    const uint32_t n = find(line);
    return n != kNone && m_read[n] != 0;
  }
  void mark_read(uint64_t line) {
    if (const uint32_t n = find(line); n != kNone) m_read[n] = 1;
  }

 private:
  static constexpr uint32_t kNone = ProbeIndex::kNone;
  struct Node {
    uint64_t line;
    uint32_t newer, older;  // neighbours in recency order (kNone at the ends)
  };

  auto line_of() const {
    return [this](uint32_t node) { return m_nodes[node].line; };
  }
  uint32_t find(uint64_t line) const { return m_index.find(line, line_of()); }
  void unlink(uint32_t node);
  void push_newest(uint32_t node);

  uint64_t m_capacity;
  std::vector<Node> m_nodes;     // never more than m_capacity
  std::vector<uint8_t> m_dirty;  // by node: written since it came in
  std::vector<uint8_t> m_read;   // by node: read (mark_read) since it came in or was last written
  uint64_t m_dirty_evictions = 0;
  ProbeIndex m_index;             // node by line
  uint32_t m_newest = kNone, m_oldest = kNone;
};

}  // namespace symsim::nv
