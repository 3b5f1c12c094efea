// Worker processes: SystemC runs one simulation per process, so the service and sweeps run
// each scenario in a child `symsim worker` (fork + exec). The child writes JSON-line events to
// fd 3 (a pipe back to the parent) and its stdout and stderr to a log file.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace symsim::service {

constexpr int kWorkerEventsFd = 3;  // the fd events arrive on, in the worker

struct SpawnedWorker {
  pid_t pid = -1;
  int events_fd = -1;  // read end of the events pipe (non-blocking, close-on-exec), owned by the caller
};

struct WorkerLimits {
  bool die_with_parent = false;  // SIGKILL when the spawning process dies (PR_SET_PDEATHSIG)
};

// Starts `argv` (argv[0] is the executable path) in its own process group, stdin from
// /dev/null, stdout and stderr appended to `log_path`. Throws std::system_error.
SpawnedWorker spawn_worker(const std::vector<std::string>& argv, const std::string& log_path,
                           const WorkerLimits& limits = {});

// The running executable (/proc/self/exe), to start workers of the same build.
std::string self_executable();

// How a waited-for child ended.
struct ExitStatus {
  bool exited = false;  // exited normally with `code`; otherwise killed by `signal`
  int code = 0;
  int signal = 0;
  std::string describe() const;
};
ExitStatus decode_wait_status(int status);

// The resident memory of a process (/proc/PID/statm), 0 when it cannot be read. (A virtual
// limit such as RLIMIT_AS cannot bound a worker: every PE reserves 64 GiB of sparse HBM.)
uint64_t resident_bytes(pid_t pid);

// The last `max_bytes` of a file (worker logs in error details), trimmed to whole lines.
std::string file_tail(const std::string& path, size_t max_bytes);

}  // namespace symsim::service
