// A one-line progress bar on stderr: redrawn in place on a terminal, a line per tenth of the
// work otherwise (CI logs stay short).
#pragma once
#include <chrono>
#include <cstddef>

namespace symsim::sweep {

class ProgressBar {
 public:
  ProgressBar(size_t total, bool enabled);
  // `done` points finished, `failed` of them not passing.
  void update(size_t done, size_t failed);
  void finish();

 private:
  size_t m_total;
  bool m_enabled, m_tty;
  size_t m_last_tenth = 0;
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace symsim::sweep
