// SIGINT/SIGTERM caught for the lifetime of a scope, so that a sweep, an exploration or a launch
// can stop its children and write what it has instead of dying. No SA_RESTART: a sleep or a
// poll ends early and the caller sees the signal.
#pragma once
#include <csignal>

namespace symsim::sweep {

// The signal received while a StopSignals was alive: 0, SIGINT or SIGTERM.
inline volatile sig_atomic_t g_stop_signal = 0;

class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = [](int sig) { g_stop_signal = sig; };
    sigaction(SIGINT, &sa, &m_int);
    sigaction(SIGTERM, &sa, &m_term);
  }
  ~StopSignals() {
    sigaction(SIGINT, &m_int, nullptr);
    sigaction(SIGTERM, &m_term, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction m_int {}, m_term{};
};

}  // namespace symsim::sweep
