// Checker state per (PE, AIV core), indexed directly: checkers look it up on every copy, poll
// and pipe sync, and a std::map over thousands of cores costs a cache miss per tree level.
#pragma once
#include <utility>
#include <vector>

namespace symsim {

template <typename T>
class PerCore {
 public:
  // The state of (pe, core), default-constructed on first use; pe and core are >= 0.
  T& operator[](const std::pair<int, int>& at) {
    const auto pe = static_cast<size_t>(at.first);
    const auto core = static_cast<size_t>(at.second);
    if (pe < m_rows.size()) {
      Row& row = m_rows[pe];
      if (core < row.cores) return row.state[core];
    }
    return grow(pe, core);
  }

 private:
  // A PE's cores, with their count kept rather than read as state.size(): that is a division by
  // sizeof(T), no power of two for most states (pipe_sync_missing's is 264 bytes), on each of the
  // ~70 lookups a MoE WQE makes (session 32). A row is 32 bytes, so finding it is a shift.
  struct Row {
    std::vector<T> state;
    size_t cores = 0;  // state.size()
  };

  // Out of line: a core's first use only; the lookups of every copy and sync keep a small frame.
  [[gnu::noinline]] T& grow(size_t pe, size_t core) {
    if (pe >= m_rows.size()) m_rows.resize(pe + 1);
    Row& row = m_rows[pe];
    if (core >= row.cores) {
      row.state.resize(core + 1);
      row.cores = row.state.size();
    }
    return row.state[core];
  }

  std::vector<Row> m_rows;  // [pe]
};

}  // namespace symsim
