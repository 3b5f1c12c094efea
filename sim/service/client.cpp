#include "service/client.h"

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

Client::Client(const Endpoint& e, const std::string& token) : m_impl(std::make_unique<Impl>()) {
  boost::system::error_code ec;
  if (e.is_unix) {
    m_impl->socket.connect(asio::local::stream_protocol::endpoint(e.path), ec);
  } else {
    asio::ip::tcp::resolver resolver(m_impl->io);
    const auto results = resolver.resolve(e.host, std::to_string(e.port), ec);
    if (!ec) {
      ec = asio::error::host_not_found;
      for (const auto& r : results) {
        m_impl->socket.close();
        m_impl->socket.connect(r.endpoint(), ec);
        if (!ec) break;
      }
    }
  }
  if (ec) throw std::runtime_error("cannot connect to " + e.describe() + ": " + ec.message());
  json hello = {{"op", "hello"}, {"client", "symsim"}};
  if (!token.empty()) hello["token"] = token;
  m_hello = request(hello);
  if (!m_hello.value("ok", false))
    throw std::runtime_error("the server refused the connection: " +
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
