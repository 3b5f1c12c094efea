#include "sim/sweep/child_guard.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace symsim::sweep {

namespace {

// How long a process asked to terminate gets before SIGKILL (a server cancelling its runs).
constexpr auto kTerminateGrace = std::chrono::seconds(10);

bool gone(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  // A zombie nobody reaps (a container's init may not) is gone too.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

void close_fds_except(int keep) {
  for (int fd = 3; fd < 1024; ++fd)
    if (fd != keep) close(fd);
}

// The watcher: collects registrations until the pipe closes, then stops what is left.
[[noreturn]] void watch(int fd) {
  setpgid(0, 0);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP}) signal(sig, SIG_IGN);
  const int devnull = open("/dev/null", O_RDWR);
  if (devnull >= 0)
    for (int std_fd = 0; std_fd < 3; ++std_fd) dup2(devnull, std_fd);
  close_fds_except(fd);

  std::map<pid_t, char> procs;
  std::set<std::string> dirs;
  std::string pending;
  char chunk[4096];
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<size_t>(n));
    for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
      const std::string line = pending.substr(0, nl);
      if (line.size() < 3) continue;
      const char op = line[0];
      const std::string arg = line.substr(2);
      if (op == 'D') dirs.insert(arg);
      else if (op == 'd') dirs.erase(arg);
      else if (op == 'F') procs.erase(static_cast<pid_t>(std::stol(arg)));
      else procs[static_cast<pid_t>(std::stol(arg))] = op;
    }
  }
  std::set<pid_t> polite;
  for (const auto& [pid, how] : procs) {
    if (how == 'G') kill(-pid, SIGKILL);
    if (how == 'K') kill(pid, SIGKILL);
    if (how == 'T' && kill(pid, SIGTERM) == 0) polite.insert(pid);
  }
  if (!polite.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (pid_t pid : polite) kill(pid, SIGTERM);  // the second one: cancel, do not wait for runs
    const auto deadline = std::chrono::steady_clock::now() + kTerminateGrace;
    for (auto it = polite.begin(); it != polite.end();) {
      if (gone(*it)) {
        it = polite.erase(it);
      } else if (std::chrono::steady_clock::now() > deadline) {
        kill(-*it, SIGKILL);
        kill(*it, SIGKILL);
        it = polite.erase(it);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }
  for (const std::string& d : dirs) {
    std::error_code ec;
    std::filesystem::remove_all(d, ec);
  }
  _exit(0);
}

}  // namespace

ChildGuard::ChildGuard() {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::system_error(errno, std::generic_category(), "socketpair");
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    throw std::system_error(e, std::generic_category(), "fork");
  }
  if (pid == 0) {
    close(fds[0]);
    watch(fds[1]);
  }
  close(fds[1]);
  m_fd = fds[0];
  m_watcher = pid;
}

ChildGuard::~ChildGuard() {
  if (m_fd >= 0) close(m_fd);
  // Reap the watcher: on an orderly end nothing is registered any more, so it exits as soon as
  // it sees the close, and nothing of ours outlives this process (tests look for stragglers).
  if (m_watcher > 0)
    while (waitpid(m_watcher, nullptr, 0) < 0 && errno == EINTR) {
    }
}

void ChildGuard::send(const std::string& line) {
  // MSG_NOSIGNAL: a watcher that is gone must not take us down with SIGPIPE.
  const std::string text = line + "\n";
  for (size_t off = 0; off < text.size();) {
    const ssize_t n = ::send(m_fd, text.data() + off, text.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the watcher died: nothing more it can do for us
    off += static_cast<size_t>(n);
  }
}

void ChildGuard::kill_group(pid_t pgid) { send("G " + std::to_string(pgid)); }
void ChildGuard::kill_process(pid_t pid) { send("K " + std::to_string(pid)); }
void ChildGuard::terminate_process(pid_t pid) { send("T " + std::to_string(pid)); }
void ChildGuard::forget(pid_t pid) { send("F " + std::to_string(pid)); }
void ChildGuard::remove_dir(const std::string& path) { send("D " + path); }
void ChildGuard::forget_dir(const std::string& path) { send("d " + path); }

}  // namespace symsim::sweep
