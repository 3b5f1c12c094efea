#include "sim/sweep/progress_bar.h"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

namespace symsim::sweep {

ProgressBar::ProgressBar(size_t total, bool enabled)
    : m_total(total), m_enabled(enabled), m_tty(isatty(2)), m_start(std::chrono::steady_clock::now()) {}

void ProgressBar::update(size_t done, size_t failed) {
  if (!m_enabled || m_total == 0) return;
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  const double eta_s =
      done ? elapsed_s / static_cast<double>(done) * static_cast<double>(m_total - done) : 0.0;
  constexpr size_t kWidth = 30;
  const size_t filled = done * kWidth / m_total;
  const std::string line =
      fmt::format("[{}{}] {}/{}  failed {}  {:.1f} s  eta {:.0f} s", std::string(filled, '#'),
                  std::string(kWidth - filled, '.'), done, m_total, failed, elapsed_s, eta_s);
  if (m_tty) {
    std::cerr << "\r" << line << "\033[K" << std::flush;
  } else if (const size_t tenth = done * 10 / m_total; tenth > m_last_tenth || done == m_total) {
    m_last_tenth = tenth;
    std::cerr << line << "\n";
  }
}

void ProgressBar::finish() {
  if (m_enabled && m_tty) std::cerr << "\n";
}

}  // namespace symsim::sweep
