// A watcher process that stops what we started when we die without stopping it ourselves
// (kill -9, a crash): sweep workers, `symsim launch`'s private server and host programs, and
// temporary folders. Each child is registered when started and forgotten once reaped; when
// the pipe to the watcher closes, everything still registered is stopped or removed. The
// watcher sits in its own process group, so a signal to ours does not take it down first.
#pragma once
#include <sys/types.h>

#include <string>

namespace symsim::sweep {

class ChildGuard {
 public:
  ChildGuard();  // forks the watcher: call before starting threads
  ~ChildGuard();  // closes the pipe: what is still registered is stopped
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;

  // SIGKILL to the process group `pgid` (a worker started in its own group).
  void kill_group(pid_t pgid);
  // SIGKILL to the process `pid` (a child in our own group).
  void kill_process(pid_t pid);
  // SIGTERM twice (a `symsim serve` then cancels its runs and exits), SIGKILL after a grace.
  void terminate_process(pid_t pid);
  // `pid` was reaped (or stopped by us): not ours any more.
  void forget(pid_t pid);
  // Remove this folder (recursively) once the registered processes are gone.
  void remove_dir(const std::string& path);
  void forget_dir(const std::string& path);

 private:
  void send(const std::string& line);
  int m_fd = -1;
  pid_t m_watcher = -1;
};

}  // namespace symsim::sweep
