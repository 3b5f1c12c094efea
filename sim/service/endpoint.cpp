#include "sim/service/endpoint.h"

#include <boost/asio/ip/address.hpp>

#include "sim/scenario/input_error.h"

namespace symsim::service {

std::string Endpoint::describe() const {
  return is_unix ? "unix:" + path : "tcp:" + host + ":" + std::to_string(port);
}

Endpoint parse_endpoint(const std::string& text, const std::string& option) {
  Endpoint e;
  std::string rest = text;
  if (rest.rfind("unix:", 0) == 0 || (rest.rfind("tcp:", 0) != 0 && rest.find('/') != std::string::npos)) {
    e.path = rest.rfind("unix:", 0) == 0 ? rest.substr(5) : rest;
    if (e.path.empty()) throw InputError(option, "", "empty Unix socket path");
    return e;
  }
  if (rest.rfind("tcp:", 0) == 0) rest = rest.substr(4);
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw InputError(option, "", "expected unix:PATH or tcp:HOST:PORT, got '" + text + "'");
  e.is_unix = false;
  e.host = rest.substr(0, colon);
  if (e.host.size() > 2 && e.host.front() == '[' && e.host.back() == ']')
    e.host = e.host.substr(1, e.host.size() - 2);
  const std::string port = rest.substr(colon + 1);
  if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
    throw InputError(option, "", "bad TCP port '" + port + "'");
  e.port = static_cast<uint16_t>(std::stoul(port));
  return e;
}

bool is_loopback_host(const std::string& host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(host, ec);
  return !ec && a.is_loopback();
}

}  // namespace symsim::service
