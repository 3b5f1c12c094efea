#include "sim/service/session.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>

#include "sim/service/protocol.h"
#include "sim/service/request_line.h"
#include "sim/service/server.h"

namespace symsim::service {

namespace {
// Longer request lines are parsed on the background thread: the event thread's share of any
// request stays a few milliseconds however long --max-frame-bytes allows lines to be.
constexpr size_t kInlineDecodeBytes = 16u << 10;
// A client this far behind loses progress events; one twice as far is disconnected.
constexpr size_t kLossyLimitBytes = 8u << 20;
constexpr size_t kHardLimitBytes = 64u << 20;
}  // namespace

Session::Session(Server& server, Socket socket, uint64_t id, size_t max_frame_bytes, bool needs_token)
    : m_server(server), m_socket(std::move(socket)), m_id(id), m_framer(max_frame_bytes), m_needs_token(needs_token) {}

void Session::start() { read(); }

void Session::read() {
  if (m_reading || m_held || m_pending || m_decoding || m_closing || m_closed) return;
  m_reading = true;
  auto self = shared_from_this();
  m_socket.async_read_some(
      boost::asio::buffer(m_buffer), [this, self](boost::system::error_code ec, size_t n) {
        m_reading = false;
        if (m_closed) return;
        if (ec) {
          close();  // the client went away: its runs go on, their results stay in the run folders
          return;
        }
        std::vector<LineFramer::Item> items;
        m_framer.feed(m_buffer, n, items);
        for (auto& it : items) m_lines.push_back({std::move(it), std::nullopt});
        process();
        read();
      });
}

void Session::process() {
  while (!m_lines.empty() && !m_held && !m_pending && !m_decoding && !m_closing && !m_closed) {
    Line& line = m_lines.front();
    if (!line.item.too_long && !line.request && line.item.text.size() > kInlineDecodeBytes) {
      m_decoding = true;  // a long line is parsed off the event thread; decoded() goes on
      m_server.decode_later(*this, std::move(line.item.text));
      return;
    }
    handle_line(line);
    if (!m_held) m_lines.pop_front();
  }
}

void Session::decoded(std::optional<nlohmann::json> request, const std::string& error) {
  if (!m_decoding || m_closed) return;
  m_decoding = false;
  if (request) {
    m_lines.front().request = std::move(*request);
  } else {
    send(error_reply(nullptr, err::kBadJson, error));
    m_lines.pop_front();
  }
  process();
  read();
}

void Session::handle_line(Line& line) {
  const LineFramer::Item& item = line.item;
  if (item.too_long) {
    send(error_reply(
        nullptr, err::kFrameTooLarge,
        "request line longer than " + std::to_string(m_server.max_frame_bytes()) + " bytes: skipped"));
    return;
  }
  if (!line.request) {
    try {
      line.request = decode_request_line(item.text);
    } catch (const BadLine& e) {
      send(error_reply(nullptr, err::kBadJson, e.what()));
      return;
    }
  }
  std::optional<nlohmann::json> reply = m_server.dispatch(*this, *line.request);  // kept if held
  if (!reply) {
    m_held = true;  // back-pressure: stop reading until the server has room
    return;
  }
  if (!reply->is_null()) send(*reply);
}

void Session::complete(const nlohmann::json& reply) {
  if (!m_pending || m_closed) return;
  m_pending = false;
  send(reply);
  process();
  read();
}

void Session::resume() {
  if (!m_held || m_closed) return;
  m_held = false;
  process();
  read();
}

void Session::send(const nlohmann::json& message, bool lossy) {
  if (m_closed) return;
  if (lossy && m_out_bytes > kLossyLimitBytes) return;
  if (m_out_bytes > kHardLimitBytes) {
    close();  // not reading at all: drop it rather than grow without bound
    return;
  }
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  m_out_bytes += line.size();
  m_out.push_back(std::move(line));
  write_next();
}

void Session::write_next() {
  if (m_writing || m_out.empty() || m_closed) return;
  m_writing = true;
  auto self = shared_from_this();
  boost::asio::async_write(m_socket, boost::asio::buffer(m_out.front()),
                           [this, self](boost::system::error_code ec, size_t) {
                             m_writing = false;
                             if (m_closed) return;
                             if (ec) {
                               close();
                               return;
                             }
                             m_out_bytes -= m_out.front().size();
                             m_out.pop_front();
                             if (m_out.empty() && m_closing) {
                               close();
                               return;
                             }
                             write_next();
                           });
}

void Session::close_after_flush() {
  m_closing = true;
  if (!m_writing && m_out.empty()) close();
}

void Session::close() {
  if (m_closed) return;
  m_closed = true;
  boost::system::error_code ignored;
  m_socket.shutdown(Socket::shutdown_both, ignored);
  m_socket.close(ignored);
  m_out.clear();
  const auto self = shared_from_this();  // the server drops its reference below
  m_server.session_closed(m_id);
}

}  // namespace symsim::service
