#include "sim/runner/wall_limit.h"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace symsim {

namespace {

char g_message[512];
size_t g_message_len = 0;

extern "C" void on_wall_limit(int) {
  // Async-signal-safe: write(2) and _exit(2) only.
  ssize_t ignored = ::write(STDERR_FILENO, g_message, g_message_len);
  (void)ignored;
  _exit(kExitWallLimit);
}

}  // namespace

void arm_wall_limit(double seconds, const char* what) {
  const int n = std::snprintf(g_message, sizeof(g_message),
                              "symsim: %s stopped: the wall-time limit of %g s (--max-wall-s) was reached; "
                              "no result was written (exit %d)\n",
                              what, seconds, kExitWallLimit);
  g_message_len = n < 0 ? 0 : std::min(static_cast<size_t>(n), sizeof(g_message) - 1);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_wall_limit;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(seconds);
  t.it_value.tv_usec = static_cast<suseconds_t>((seconds - std::floor(seconds)) * 1e6);
  if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &t, nullptr);
}

void disarm_wall_limit() {
  itimerval t{};
  setitimer(ITIMER_REAL, &t, nullptr);
}

}  // namespace symsim
