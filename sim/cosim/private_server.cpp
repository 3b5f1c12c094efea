#include "sim/cosim/private_server.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "sim/service/endpoint.h"
#include "sim/service/worker_process.h"

namespace fs = std::filesystem;

namespace symsim::cosim {

namespace {

fs::path temp_root() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? fs::path(tmp) : fs::path("/tmp");
}

}  // namespace

PrivateServer::PrivateServer(sweep::ChildGuard& guard) : m_guard(guard) {
  std::string tmpl = (temp_root() / "symsim-launch-XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    throw std::runtime_error("cannot create a temporary folder " + tmpl + ": " + std::strerror(errno));
  m_dir = tmpl;
  m_guard.remove_dir(m_dir.string());
  m_socket = (m_dir / "serve.sock").string();
  const service::SpawnedWorker w =
      service::spawn_worker({service::self_executable(), "serve", "--socket", m_socket, "--dir",
                             (m_dir / "state").string(), "--workers", "1"},
                            (m_dir / "serve.log").string());
  close(w.events_fd);
  m_pid = w.pid;
  m_guard.terminate_process(m_pid);
}

PrivateServer::~PrivateServer() {
  if (m_pid > 0) {
    kill(m_pid, SIGTERM);
    kill(m_pid, SIGTERM);  // the second one cancels a run still going
    while (waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    m_guard.forget(m_pid);
  }
  std::error_code ec;
  fs::remove_all(m_dir, ec);
  m_guard.forget_dir(m_dir.string());
}

std::unique_ptr<service::Client> PrivateServer::connect() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    try {
      return std::make_unique<service::Client>(service::parse_endpoint(endpoint(), "--server"), "");
    } catch (const std::exception& e) {
      int status = 0;
      if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
        m_guard.forget(m_pid);
        m_pid = -1;
        throw std::runtime_error("the private symsim serve exited: " +
                                 service::file_tail((m_dir / "serve.log").string(), 400));
      }
      if (std::chrono::steady_clock::now() > deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

}  // namespace symsim::cosim
