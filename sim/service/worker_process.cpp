#include "sim/service/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

namespace symsim::service {

namespace {

[[noreturn]] void throw_errno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// In the child between fork and exec: only async-signal-safe calls.
void close_fds_from(int first) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  struct rlimit lim {};
  const long top =
      getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536 ? static_cast<long>(lim.rlim_cur) : 65536;
  for (long fd = first; fd < top; ++fd) close(static_cast<int>(fd));
}

}  // namespace

SpawnedWorker spawn_worker(const std::vector<std::string>& argv, const std::string& log_path,
                           const WorkerLimits& limits) {
  const pid_t parent = getpid();
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw_errno("pipe2");
  const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    const int e = errno;
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    throw std::system_error(e, std::generic_category(), "open " + log_path);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    close(log_fd);
    throw std::system_error(e, std::generic_category(), "fork");
  }
  if (pid == 0) {
    setpgid(0, 0);  // cancel kills the whole group; a terminal's Ctrl-C goes to the parent only
    if (limits.die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0 ||
        dup2(pipe_fds[1], kWorkerEventsFd) < 0)
      _exit(127);
    close_fds_from(kWorkerEventsFd + 1);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so a kill right after fork finds the group
  close(pipe_fds[1]);
  close(log_fd);
  const int flags = fcntl(pipe_fds[0], F_GETFL);
  fcntl(pipe_fds[0], F_SETFL, flags | O_NONBLOCK);
  return {pid, pipe_fds[0]};
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) throw_errno("readlink /proc/self/exe");
  return std::string(buf, static_cast<size_t>(n));
}

std::string ExitStatus::describe() const {
  if (exited) return "exited with code " + std::to_string(code);
  const char* name = sigabbrev_np(signal);
  return "killed by signal " + std::to_string(signal) + (name ? std::string(" (SIG") + name + ")" : "");
}

ExitStatus decode_wait_status(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) {
    s.exited = true;
    s.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s.signal = WTERMSIG(status);
  }
  return s;
}

uint64_t resident_bytes(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
  std::ifstream in(path);
  uint64_t size_pages = 0, resident_pages = 0;
  if (!(in >> size_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string file_tail(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const auto size = static_cast<size_t>(in.tellg());
  const size_t start = size > max_bytes ? size - max_bytes : 0;
  in.seekg(static_cast<std::streamoff>(start));
  std::string text(size - start, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (start > 0) {
    const auto nl = text.find('\n');
    if (nl != std::string::npos) text = text.substr(nl + 1);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace symsim::service
