#include "sim/cosim/host_programs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "sim/cosim/wire.h"

namespace symsim::cosim {

namespace {

// How long host programs get to exit after SIGTERM before SIGKILL.
constexpr auto kStopGrace = std::chrono::seconds(1);

}  // namespace

void HostPrograms::start(const std::vector<std::string>& command, const std::string& socket, int n) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (int pe = 0; pe < n; ++pe) {
    std::vector<std::string> env_kv = {std::string(kEnvSocket) + "=" + socket,
                                       std::string(kEnvPe) + "=" + std::to_string(pe),
                                       std::string(kEnvPes) + "=" + std::to_string(n),
                                       "RANK=" + std::to_string(pe),
                                       "WORLD_SIZE=" + std::to_string(n),
                                       "OMPI_COMM_WORLD_RANK=" + std::to_string(pe),
                                       "OMPI_COMM_WORLD_SIZE=" + std::to_string(n),
                                       "PMI_RANK=" + std::to_string(pe),
                                       "PMI_SIZE=" + std::to_string(n)};
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
      for (std::string& kv : env_kv) putenv(kv.data());
      execvp(argv[0], argv.data());
      std::fprintf(stderr, "symsim launch: cannot run %s: %s\n", argv[0], std::strerror(errno));
      _exit(127);
    }
    m_guard.kill_process(pid);
    m_hosts.push_back({pid, false, {}});
    ++m_left;
  }
}

void HostPrograms::ended(Host& h, int wait_status) {
  h.ended = true;
  --m_left;
  m_guard.forget(h.pid);
  h.status = service::decode_wait_status(wait_status);
  if (!(h.status.exited && h.status.code == 0) && !m_failed_at) m_failed_at = std::chrono::steady_clock::now();
}

bool HostPrograms::poll() {
  for (Host& h : m_hosts) {
    int st = 0;
    if (!h.ended && waitpid(h.pid, &st, WNOHANG) == h.pid) ended(h, st);
  }
  return all_ended();
}

void HostPrograms::stop() {
  if (poll()) return;
  for (const Host& h : m_hosts)
    if (!h.ended) kill(h.pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  while (!poll() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  for (Host& h : m_hosts) {
    if (h.ended) continue;
    kill(h.pid, SIGKILL);
    int st = 0;
    while (waitpid(h.pid, &st, 0) < 0 && errno == EINTR) {
    }
    ended(h, st);
  }
}

}  // namespace symsim::cosim
