// Where the service listens or a client connects: a Unix socket path or a TCP host and port.
// Written "unix:PATH" (or any text containing '/') and "tcp:HOST:PORT" (or "HOST:PORT").
#pragma once
#include <cstdint>
#include <string>

namespace symsim::service {

struct Endpoint {
  bool is_unix = true;
  std::string path;  // Unix socket
  std::string host;  // TCP
  uint16_t port = 0;
  std::string describe() const;
};

// Parses an endpoint; throws InputError (naming `option`) on anything malformed.
Endpoint parse_endpoint(const std::string& text, const std::string& option);

// True when `host` is a loopback address (127.0.0.0/8, ::1) or "localhost".
bool is_loopback_host(const std::string& host);

}  // namespace symsim::service
