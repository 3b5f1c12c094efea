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
    if (pe >= m_rows.size()) m_rows.resize(pe + 1);
    std::vector<T>& row = m_rows[pe];
    if (core >= row.size()) row.resize(core + 1);
    return row[core];
  }

 private:
  std::vector<std::vector<T>> m_rows;  // [pe][core]
};

}  // namespace symsim
