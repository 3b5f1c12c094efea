// `symsim launch`'s own `symsim serve`, in a temporary folder ($TMPDIR, default /tmp), stopped
// and removed when done. Registered with a ChildGuard, so a kill -9 of the launcher still
// stops the server (which cancels its run and its worker) and removes the folder.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>

#include "sim/service/client.h"
#include "sim/sweep/child_guard.h"

namespace symsim::cosim {

class PrivateServer {
 public:
  explicit PrivateServer(sweep::ChildGuard& guard);
  ~PrivateServer();
  PrivateServer(const PrivateServer&) = delete;
  PrivateServer& operator=(const PrivateServer&) = delete;
  std::string endpoint() const { return "unix:" + m_socket; }
  // Connects, retrying while the server starts.
  std::unique_ptr<service::Client> connect();

 private:
  sweep::ChildGuard& m_guard;
  std::filesystem::path m_dir;
  std::string m_socket;
  pid_t m_pid = -1;
};

}  // namespace symsim::cosim
