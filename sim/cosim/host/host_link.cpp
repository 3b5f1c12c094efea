#include "sim/cosim/host/host_link.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim/cosim/wire.h"

namespace symsim::cosim {

namespace {

// Losing the simulator leaves nothing sensible to return: say so and stop, as a lost device would.
[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "symsim co-simulation: %s\n", why.c_str());
  std::fflush(stderr);
  std::_Exit(70);
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

}  // namespace

HostLink& HostLink::get() {
  static HostLink link;
  return link;
}

HostLink::HostLink() {
  const char* path = std::getenv(kEnvSocket);
  if (!path || !*path)
    die(std::string("this program uses the co-simulation host library: run it under `symsim launch` (") +
        kEnvSocket + " is not set)");
  m_pe = env_int(kEnvPe, -1);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof(addr.sun_path)) die(std::string("socket path too long: ") + path);
  std::strcpy(addr.sun_path, path);
  m_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_fd < 0 || connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
    die(std::string("cannot connect to the simulator at ") + path + ": " + std::strerror(errno));
  const nlohmann::json hello = call({{"op", "hello"}, {"pe", m_pe}, {"pid", static_cast<int64_t>(getpid())}});
  if (hello.value("ret", -1) != 0)
    die("the simulator refused PE " + std::to_string(m_pe) + ": " + hello.value("error", std::string()));
  m_n_pes = hello.value("n_pes", 1);
}

nlohmann::json HostLink::call(const nlohmann::json& request, const void* data, size_t bytes,
                              std::string* reply_data) {
  Frame reply;
  try {
    write_frame(m_fd, request, data, bytes);
    if (!read_frame(m_fd, reply)) die("the simulator closed the connection (the simulation ended or failed)");
  } catch (const std::exception& e) {
    die(e.what());
  }
  if (reply_data) *reply_data = std::move(reply.data);
  return reply.header;
}

int HostLink::call_ret(const nlohmann::json& request, const void* data, size_t bytes) {
  const nlohmann::json r = call(request, data, bytes);
  if (r.contains("error"))
    std::fprintf(stderr, "symsim co-simulation: pe %d: %s: %s\n", m_pe,
                 request.value("op", std::string()).c_str(), r["error"].get<std::string>().c_str());
  return r.value("ret", -1);
}

}  // namespace symsim::cosim
