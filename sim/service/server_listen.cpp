// Listening: the state folder (locked), recovery of earlier runs, the TCP token, the sockets,
// the connection limit that keeps descriptors in reserve, and accept loops that pause instead
// of spinning when the process is out of descriptors.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <filesystem>
#include <iostream>
#include <utility>

#include "sim/scenario/input_error.h"
#include "sim/service/server.h"

namespace fs = std::filesystem;
namespace asio = boost::asio;

namespace symsim::service {

namespace {

constexpr size_t kUnixPathMax = 107;  // sun_path less the terminating NUL
constexpr auto kAcceptPause = std::chrono::milliseconds(100);

size_t open_descriptors() {
  std::error_code ec;
  size_t n = 0;
  for (auto it = fs::directory_iterator("/proc/self/fd", ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// Connections the descriptor limit allows, keeping a reserve for workers (events pipe, log,
// fork), run files and scenario reads. Raises the soft limit to the hard one first.
size_t connection_limit(int workers) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1024;
  if (lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = std::min<rlim_t>(lim.rlim_max, 1u << 20);
    setrlimit(RLIMIT_NOFILE, &lim);
    getrlimit(RLIMIT_NOFILE, &lim);
  }
  const size_t reserve = open_descriptors() + 32 + 3 * static_cast<size_t>(workers);
  const size_t soft = lim.rlim_cur == RLIM_INFINITY ? size_t{1} << 20 : static_cast<size_t>(lim.rlim_cur);
  if (soft <= reserve)
    throw InputError("--workers", "",
                     fmt::format("{} workers need more than the {} file descriptors this process may open "
                                 "(ulimit -n); raise the limit or use fewer workers",
                                 workers, soft));
  return soft - reserve;
}

bool out_of_resources(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
         ec == asio::error::no_memory || ec.value() == ENFILE;
}

}  // namespace

void Server::start() {
  if (m_options.listen.empty())
    throw InputError("symsim serve", "", "nothing to listen on (--socket or --listen)");
  m_state = std::make_unique<StateDir>(m_options.state_dir);
  const std::string root = m_options.root.empty() ? m_options.state_dir : m_options.root;
  try {
    m_root = std::make_unique<ConfinedRoot>(root);
  } catch (const std::system_error& e) {
    throw InputError("--root", "", fmt::format("cannot open the folder '{}': {}", root, e.code().message()));
  }
  // Runs a previous server left here: answered from their folders, numbering goes on after them.
  for (auto& run : recover_runs(m_state->runs())) {
    m_next_run = std::max<uint64_t>(m_next_run, std::stoull(run->id.substr(1)) + 1);
    m_order.push_back(run->id);
    m_runs.emplace(run->id, std::move(run));
  }
  const bool tcp = std::any_of(m_options.listen.begin(), m_options.listen.end(),
                               [](const Endpoint& e) { return !e.is_unix; });
  if (tcp && m_options.token.empty()) {
    m_options.token = m_state->generate_token();
    std::cerr << "symsim serve: TCP clients must send the token in "
              << fs::absolute(m_state->token_path()).string() << " (or pass --token)\n";
  }
  bind_endpoints();
  m_max_sessions = connection_limit(m_options.workers);
  for (size_t i = 0; i < m_unix.size(); ++i) accept_unix(i);
  for (size_t i = 0; i < m_tcp.size(); ++i) accept_tcp(i);
  wait_signals();
  if (m_options.run_memory_bytes > 0) watch_memory();
}

void Server::bind_endpoints() {
  for (const Endpoint& e : m_options.listen) {
    if (e.is_unix) {
      if (e.path.size() > kUnixPathMax) throw InputError("--socket", "", e.path + ": path longer than 107 bytes");
      asio::local::stream_protocol::endpoint ep(e.path);
      if (fs::exists(fs::symlink_status(e.path))) {
        asio::local::stream_protocol::socket probe(m_io);
        boost::system::error_code ec;
        probe.connect(ep, ec);
        if (!ec) throw InputError("--socket", "", e.path + ": another server is listening on this socket");
        if (!fs::is_socket(fs::symlink_status(e.path)))
          throw InputError("--socket", "", e.path + ": exists and is not a socket");
        fs::remove(e.path);  // stale socket from a server that died
      }
      // Created 0600 under the server's umask (077), so no one else can connect at any moment.
      auto a = std::make_unique<asio::local::stream_protocol::acceptor>(m_io);
      boost::system::error_code ec;
      a->open(ep.protocol(), ec);
      if (!ec) a->bind(ep, ec);
      if (!ec) a->listen(asio::socket_base::max_listen_connections, ec);
      if (ec) throw InputError("--socket", "", fmt::format("cannot listen on {}: {}", e.path, ec.message()));
      chmod(e.path.c_str(), 0600);  // 0700 from the umask; no one needs to execute a socket
      m_unix.push_back(std::move(a));
      m_bound.push_back(e);
    } else {
      const std::string host = e.host == "localhost" ? "127.0.0.1" : e.host;
      boost::system::error_code ec;
      const auto addr = asio::ip::make_address(host, ec);
      if (ec) throw InputError("--listen", "", "not an IP address: '" + e.host + "'");
      if (!addr.is_loopback() && !m_options.allow_public)
        throw InputError("--listen", "",
                         e.host + " is not a loopback address: pass --public (with --token) to listen on it");
      if (!addr.is_loopback() && !m_unix_needs_token)
        throw InputError("--listen", "", "listening on a non-loopback address needs --token");
      auto a = std::make_unique<asio::ip::tcp::acceptor>(m_io);
      const asio::ip::tcp::endpoint ep(addr, e.port);
      a->open(ep.protocol(), ec);
      if (!ec) a->set_option(asio::socket_base::reuse_address(true), ec);
      if (!ec) a->bind(ep, ec);
      if (!ec) a->listen(asio::socket_base::max_listen_connections, ec);
      if (ec) throw InputError("--listen", "", fmt::format("cannot listen on {}: {}", e.describe(), ec.message()));
      Endpoint b = e;
      b.port = a->local_endpoint().port();
      m_tcp.push_back(std::move(a));
      m_bound.push_back(b);
    }
  }
}

void Server::accept_unix(size_t i) {
  if (!m_shutdown_mode.empty()) return;
  m_unix[i]->async_accept([this, i](boost::system::error_code ec, asio::local::stream_protocol::socket s) {
    if (ec == asio::error::operation_aborted || !m_shutdown_mode.empty()) return;
    if (ec) return after_accept_error(ec, [this, i] { accept_unix(i); });
    m_accept_paused = false;
    add_session(Session::Socket(std::move(s)), false);
    accept_unix(i);
  });
}

void Server::accept_tcp(size_t i) {
  if (!m_shutdown_mode.empty()) return;
  m_tcp[i]->async_accept([this, i](boost::system::error_code ec, asio::ip::tcp::socket s) {
    if (ec == asio::error::operation_aborted || !m_shutdown_mode.empty()) return;
    if (ec) return after_accept_error(ec, [this, i] { accept_tcp(i); });
    s.set_option(asio::ip::tcp::no_delay(true), ec);
    m_accept_paused = false;
    add_session(Session::Socket(std::move(s)), true);
    accept_tcp(i);
  });
}

void Server::after_accept_error(const boost::system::error_code& ec, std::function<void()> again) {
  if (ec == asio::error::connection_aborted || ec == asio::error::connection_reset) {
    again();  // that client went away before we took it
    return;
  }
  // Out of descriptors (or anything else lasting): the pending connection stays in the backlog,
  // so accepting again at once would fail at once; wait for a run or a connection to end.
  if (out_of_resources(ec) && !std::exchange(m_accept_paused, true))
    std::cerr << fmt::format("symsim serve: cannot accept a connection ({}); pausing accepts\n", ec.message());
  auto timer = std::make_shared<asio::steady_timer>(m_io, kAcceptPause);
  timer->async_wait([timer, again = std::move(again)](boost::system::error_code) { again(); });
}

}  // namespace symsim::service
