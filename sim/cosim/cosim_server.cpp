#include "sim/cosim/cosim_server.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "sim/cosim/host_proxy.h"
#include "sim/cosim/wire.h"
#include "kernels/registry/kernel_registry.h"

namespace symsim::cosim {

namespace {

// The listening socket and, once accepted, one connection per PE.
struct Hub {
  std::string path;
  int listen_fd = -1;
  int n_pes = 0;
  double timeout_s = 60;
  std::vector<int> fds;  // by PE
  bool accepted = false;
  std::string failure;
};

Hub& hub() {
  static Hub h;
  return h;
}

[[noreturn]] void fail_errno(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

void stop_listening(Hub& h) {
  close(h.listen_fd);
  h.listen_fd = -1;
  std::error_code ec;
  std::filesystem::remove(h.path, ec);
}

// Accepts every host program (each says which PE it is) before any PE runs a call.
void accept_all(Hub& h) {
  if (h.accepted) {
    if (!h.failure.empty()) throw std::runtime_error(h.failure);
    return;
  }
  h.accepted = true;
  h.fds.assign(h.n_pes, -1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(h.timeout_s);
  int connected = 0;
  try {
    while (connected < h.n_pes) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
              .count();
      pollfd p{h.listen_fd, POLLIN, 0};
      const int r = left > 0 ? poll(&p, 1, static_cast<int>(left)) : 0;
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw std::runtime_error(
            fmt::format("{} of {} host programs connected within {} s", connected, h.n_pes, h.timeout_s));
      const int fd = accept(h.listen_fd, nullptr, nullptr);
      if (fd < 0) continue;
      Frame hello;
      if (!read_frame(fd, hello) || hello.header.value("op", std::string()) != "hello") {
        close(fd);
        continue;
      }
      const int pe = hello.header.value("pe", -1);
      if (pe < 0 || pe >= h.n_pes || h.fds[pe] >= 0) {
        write_frame(fd,
                    {{"ret", -1},
                     {"error", fmt::format("PE {} is outside 0..{} or already connected", pe, h.n_pes - 1)}});
        close(fd);
        continue;
      }
      h.fds[pe] = fd;
      // The socket goes before the last host program hears back: `symsim launch` reads a
      // socket still there once every host exited as "some never connected".
      if (++connected == h.n_pes) stop_listening(h);
      write_frame(fd, {{"ret", 0}, {"pe", pe}, {"n_pes", h.n_pes}});
    }
  } catch (const std::exception& e) {
    h.failure = e.what();
    throw;
  }
}

void cosim_host_main(int pe, const KernelArgs&) {
  Hub& h = hub();
  if (h.n_pes == 0)
    throw std::runtime_error("the cosim_host kernel runs only under `symsim launch` (no host programs)");
  accept_all(h);
  HostProxy(pe, h.fds[pe]).serve();
}

}  // namespace

void serve_host_programs(const std::string& socket_path, int n_pes, service::EventSink& sink,
                         double connect_timeout_s) {
  Hub& h = hub();
  h.path = socket_path;
  h.n_pes = n_pes;
  h.timeout_s = connect_timeout_s;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof(addr.sun_path))
    throw std::runtime_error("co-simulation socket path too long: " + socket_path);
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  h.listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (h.listen_fd < 0) fail_errno("socket");
  ::unlink(socket_path.c_str());
  if (bind(h.listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    fail_errno("bind " + socket_path);
  if (listen(h.listen_fd, n_pes) != 0) fail_errno("listen");
  sink.emit({{"event", "cosim_ready"}, {"socket", socket_path}, {"pes", n_pes}});
}

}  // namespace symsim::cosim

SYMSIM_REGISTER_KERNEL(cosim_host,
                       {"cosim_host",
                        "ascend",
                        "host programs run as separate processes (symsim launch); their host API calls "
                        "execute here, their kernels in the simulator",
                        {},
                        48,
                        symsim::cosim::cosim_host_main});
