#include "sim/stats/tty_progress.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

namespace symsim {

namespace {
constexpr std::chrono::milliseconds kFirst{1000}, kEvery{500};
}

TtyProgress::TtyProgress()
    : m_tty(isatty(STDERR_FILENO) == 1), m_start(std::chrono::steady_clock::now()), m_next(m_start + kFirst) {}

void TtyProgress::on_wqe_executed(const WqeRecord& r) {
  ++m_wqes;
  tick(r.fetch_ps);
}

void TtyProgress::tick(Ps t) {
  m_latest_ps = std::max(m_latest_ps, t);
  if ((++m_calls & 255) != 0) return;  // read the clock every 256 callbacks
  const auto now = std::chrono::steady_clock::now();
  if (now < m_next) return;
  m_next = now + kEvery;
  const double wall_s = std::chrono::duration<double>(now - m_start).count();
  std::cerr << fmt::format("\rsimulated {:.3f} us  WQEs {}  {:.3f} M WQEs per wall second  wall {:.1f} s\033[K",
                           ps_to_us(m_latest_ps), m_wqes, static_cast<double>(m_wqes) / wall_s / 1e6, wall_s)
            << std::flush;
  m_drawn = true;
}

void TtyProgress::finish() {
  if (!m_drawn) return;
  std::cerr << "\r\033[K" << std::flush;
  m_drawn = false;
}

}  // namespace symsim
