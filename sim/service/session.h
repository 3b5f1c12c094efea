// One client connection of `symsim serve`: reads JSON lines (bounded), hands each request to
// the server, and writes replies and events in order. A submit the queue cannot take yet is
// held and reading pauses (back-pressure) until the server resumes the session; a request the
// server answers later (validated off the event thread) holds the requests behind it likewise.
#pragma once
#include <boost/asio/generic/stream_protocol.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/service/line_framer.h"

namespace symsim::service {

class Server;

class Session : public std::enable_shared_from_this<Session> {
 public:
  using Socket = boost::asio::generic::stream_protocol::socket;
  Session(Server& server, Socket socket, uint64_t id, size_t max_frame_bytes, bool needs_token);

  uint64_t id() const { return m_id; }
  bool needs_token() const { return m_needs_token; }
  bool authenticated() const { return m_authenticated; }
  void set_authenticated() { m_authenticated = true; }
  int add_auth_failure() { return ++m_auth_failures; }

  // The current request's reply comes later, through complete(); requests behind it wait.
  void set_pending() { m_pending = true; }
  void complete(const nlohmann::json& reply);
  // A long line parsed off the event thread: the request, or the reason it is not one.
  void decoded(std::optional<nlohmann::json> request, const std::string& error);
  void start();
  // Queues a message. A lossy one (progress) is dropped when the client is far behind.
  void send(const nlohmann::json& message, bool lossy = false);
  // Retries the held request (the server has room again), then goes on reading.
  void resume();
  // Flushes what is queued, then closes.
  void close_after_flush();
  bool closed() const { return m_closed; }

 private:
  void read();
  void process();  // handles buffered lines until none is left or one is held
  struct Line {
    LineFramer::Item item;
    std::optional<nlohmann::json> request;  // once parsed (a held submit keeps it for its retry)
  };
  void handle_line(Line& line);
  void write_next();
  void close();

  Server& m_server;
  Socket m_socket;
  uint64_t m_id;
  LineFramer m_framer;
  char m_buffer[64 * 1024];
  std::deque<Line> m_lines;              // read, not yet handled
  bool m_held = false;                   // m_lines.front() waits for queue room
  bool m_pending = false;                // a request's reply comes later
  bool m_decoding = false;               // m_lines.front() is being parsed off the event thread
  bool m_reading = false;
  bool m_needs_token;
  bool m_authenticated = false;
  int m_auth_failures = 0;
  std::deque<std::string> m_out;
  size_t m_out_bytes = 0;
  bool m_writing = false;
  bool m_closing = false;
  bool m_closed = false;
};

}  // namespace symsim::service
