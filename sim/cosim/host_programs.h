// The N host processes of `symsim launch` (one per PE), each registered with a ChildGuard so
// that they die with the launcher, reaped without blocking, and stopped when the run is over.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "sim/service/worker_process.h"
#include "sim/sweep/child_guard.h"

namespace symsim::cosim {

class HostPrograms {
 public:
  explicit HostPrograms(sweep::ChildGuard& guard) : m_guard(guard) {}
  ~HostPrograms() { stop(); }
  HostPrograms(const HostPrograms&) = delete;
  HostPrograms& operator=(const HostPrograms&) = delete;

  // Starts one copy of `command` per PE with the launcher's environment (socket, ranks).
  void start(const std::vector<std::string>& command, const std::string& socket, int n_pes);
  // Reaps the processes that ended; returns whether all have.
  bool poll();
  bool all_ended() const { return m_left == 0; }
  // When the first one ended other than with exit 0.
  const std::optional<std::chrono::steady_clock::time_point>& first_failure() const { return m_failed_at; }
  // SIGTERM to those still running, SIGKILL after a grace, and reaps them all.
  void stop();
  size_t size() const { return m_hosts.size(); }
  const service::ExitStatus& status(size_t pe) const { return m_hosts[pe].status; }

 private:
  struct Host {
    pid_t pid = -1;
    bool ended = false;
    service::ExitStatus status;
  };
  void ended(Host& h, int wait_status);
  sweep::ChildGuard& m_guard;
  std::vector<Host> m_hosts;
  size_t m_left = 0;
  std::optional<std::chrono::steady_clock::time_point> m_failed_at;
};

}  // namespace symsim::cosim
