// A blocking client of the service protocol (used by `symsim submit` and `symsim launch`):
// one connection, requests answered in order, events handed to a callback as they arrive.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "sim/service/endpoint.h"

namespace symsim::service {

// The server could not be reached or did not answer as a server: refused, no such socket, no
// hello reply within the timeout, or it turned the connection away (server_busy).
struct ConnectError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Client {
 public:
  using EventHandler = std::function<void(const nlohmann::json& event)>;

  // Connects and says hello (with `token` when not empty), both within `timeout`; throws
  // ConnectError when the server cannot be reached or does not answer, std::runtime_error
  // when it refuses the token.
  Client(const Endpoint& endpoint, const std::string& token,
         std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~Client();

  // Sends `request` (an "id" is added) and returns its reply; events arriving meanwhile go to
  // the handler. Throws on a closed connection, not on an error reply.
  nlohmann::json request(nlohmann::json request);
  // The next message (event or reply) from the server; throws when the connection closes.
  nlohmann::json next();
  // The same, or nullopt when none arrives within `timeout`.
  std::optional<nlohmann::json> next_for(std::chrono::milliseconds timeout);
  void on_event(EventHandler h) { m_handler = std::move(h); }
  // The hello reply.
  const nlohmann::json& hello() const { return m_hello; }

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  EventHandler m_handler;
  nlohmann::json m_hello;
  uint64_t m_next_id = 1;
};

// The server a client talks to by default: $SYMSIM_SERVER, else the default `serve` socket.
std::string default_server();
constexpr const char* kDefaultSocket = "symsim-serve/symsim.sock";

}  // namespace symsim::service
