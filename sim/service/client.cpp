#include "sim/service/client.h"

#include <poll.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdlib>
#include <istream>
#include <stdexcept>

namespace asio = boost::asio;
using nlohmann::json;

namespace symsim::service {

struct Client::Impl {
  asio::io_context io;
  asio::generic::stream_protocol::socket socket{io};
  asio::streambuf in;
};

namespace {

// Runs one asynchronous connect on `io` for at most `timeout`; would_block when it timed out.
template <typename Socket, typename EndpointT>
boost::system::error_code connect_within(asio::io_context& io, Socket& socket, const EndpointT& ep,
                                         std::chrono::milliseconds timeout) {
  boost::system::error_code ec = asio::error::would_block;
  socket.async_connect(ep, [&ec](boost::system::error_code e) { ec = e; });
  io.restart();
  io.run_for(timeout);
  if (ec == asio::error::would_block) {
    socket.close();
    io.restart();
    io.run();  // the aborted handler
    ec = asio::error::timed_out;
  }
  return ec;
}

}  // namespace

Client::Client(const Endpoint& e, const std::string& token, std::chrono::milliseconds timeout)
    : m_impl(std::make_unique<Impl>()) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  boost::system::error_code ec;
  if (e.is_unix) {
    asio::local::stream_protocol::socket s(m_impl->io);
    ec = connect_within(m_impl->io, s, asio::local::stream_protocol::endpoint(e.path), timeout);
    if (!ec) m_impl->socket = asio::generic::stream_protocol::socket(std::move(s));
  } else {
    asio::ip::tcp::resolver resolver(m_impl->io);
    const auto results = resolver.resolve(e.host, std::to_string(e.port), ec);
    if (!ec) {
      ec = asio::error::host_not_found;
      for (const auto& r : results) {
        asio::ip::tcp::socket s(m_impl->io);
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        ec = connect_within(m_impl->io, s, r.endpoint(), std::max(left, std::chrono::milliseconds(1)));
        if (!ec) {
          m_impl->socket = asio::generic::stream_protocol::socket(std::move(s));
          break;
        }
      }
    }
  }
  if (ec == asio::error::timed_out)
    throw ConnectError("cannot connect to " + e.describe() + ": no answer within " +
                       std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s");
  if (ec) throw ConnectError("cannot connect to " + e.describe() + ": " + ec.message() + " (is `symsim serve` running there?)");
  json hello = {{"op", "hello"}, {"client", "symsim"}, {"id", m_next_id++}};
  if (!token.empty()) hello["token"] = token;
  asio::write(m_impl->socket, asio::buffer(hello.dump() + "\n"));
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    std::optional<json> msg;
    try {
      msg = next_for(std::max(left, std::chrono::milliseconds(0)));
    } catch (const std::exception& x) {
      throw ConnectError("connected to " + e.describe() + ", but it closed the connection before answering");
    }
    if (!msg)
      throw ConnectError("connected to " + e.describe() + ", but it sent no answer within " +
                         std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s (a stopped or busy server?)");
    if (msg->contains("event")) continue;
    if (msg->value("id", json()) != hello["id"]) {
      if (!msg->value("ok", true) && msg->contains("error"))  // turned away before the hello was read
        throw ConnectError("the server at " + e.describe() + " turned the connection away: " +
                           (*msg)["error"].value("message", std::string("?")));
      continue;
    }
    m_hello = std::move(*msg);
    break;
  }
  if (!m_hello.value("ok", false))
    throw ConnectError("the server refused the connection: " +
                             m_hello["error"].value("message", std::string("?")));
}

Client::~Client() = default;

json Client::next() {
  const size_t n = asio::read_until(m_impl->socket, m_impl->in, '\n');
  std::string line(asio::buffers_begin(m_impl->in.data()),
                   asio::buffers_begin(m_impl->in.data()) + static_cast<long>(n));
  m_impl->in.consume(n);
  return json::parse(line);
}

std::optional<json> Client::next_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto& data = m_impl->in.data();
    if (std::find(asio::buffers_begin(data), asio::buffers_end(data), '\n') != asio::buffers_end(data))
      return next();
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{m_impl->socket.native_handle(), POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;  // timeout or EINTR: check the clock
    const size_t n = m_impl->socket.read_some(m_impl->in.prepare(64 * 1024));  // throws when closed
    m_impl->in.commit(n);
  }
}

json Client::request(json req) {
  const uint64_t id = m_next_id++;
  req["id"] = id;
  const std::string line = req.dump() + "\n";
  asio::write(m_impl->socket, asio::buffer(line));
  for (;;) {
    json msg = next();
    if (msg.contains("event")) {
      if (m_handler) m_handler(msg);
      continue;
    }
    if (msg.value("id", json()) == json(id)) return msg;
  }
}

std::string default_server() {
  const char* env = std::getenv("SYMSIM_SERVER");
  return env && *env ? env : std::string("unix:") + kDefaultSocket;
}

}  // namespace symsim::service
