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
    if (pe < m_rows.size() && core < m_rows[pe].size()) return m_rows[pe][core];
    return grow(pe, core);
  }

 private:
  // Out of line: a core's first use only; the lookups of every copy and sync keep a small frame.
  [[gnu::noinline]] T& grow(size_t pe, size_t core) {
    if (pe >= m_rows.size()) m_rows.resize(pe + 1);
    std::vector<T>& row = m_rows[pe];
    if (core >= row.size()) row.resize(core + 1);
    return row[core];
  }

  std::vector<std::vector<T>> m_rows;  // [pe][core]
};

}  // namespace symsim
