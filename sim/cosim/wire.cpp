#include "sim/cosim/wire.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace symsim::cosim {

namespace {

// Reads exactly `n` bytes; returns false on end of stream before the first byte.
bool read_exact(int fd, void* buf, size_t n, bool allow_eof) {
  auto* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd, p + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw std::runtime_error(std::string("co-simulation socket: ") + std::strerror(errno));
    if (r == 0) {
      if (done == 0 && allow_eof) return false;
      throw std::runtime_error("co-simulation socket: the peer closed the connection mid-frame");
    }
    done += static_cast<size_t>(r);
  }
  return true;
}

void write_exact(int fd, const void* buf, size_t n) {
  const auto* p = static_cast<const char*>(buf);
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::send(fd, p + done, n - done, MSG_NOSIGNAL);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw std::runtime_error(std::string("co-simulation socket: ") + std::strerror(errno));
    done += static_cast<size_t>(r);
  }
}

}  // namespace

bool read_frame(int fd, Frame& frame) {
  uint32_t sizes[2];
  if (!read_exact(fd, sizes, sizeof(sizes), true)) return false;
  if (sizes[0] == 0 || sizes[0] > kMaxHeaderBytes || sizes[1] > kMaxDataBytes)
    throw std::runtime_error("co-simulation socket: frame sizes out of range");
  std::string header(sizes[0], '\0');
  read_exact(fd, header.data(), header.size(), false);
  frame.data.resize(sizes[1]);
  if (sizes[1]) read_exact(fd, frame.data.data(), frame.data.size(), false);
  try {
    frame.header = nlohmann::json::parse(header);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("co-simulation socket: bad header: ") + e.what());
  }
  if (!frame.header.is_object()) throw std::runtime_error("co-simulation socket: a header is a JSON object");
  return true;
}

void write_frame(int fd, const nlohmann::json& header, const void* data, size_t bytes) {
  const std::string h = header.dump();
  if (bytes > kMaxDataBytes) throw std::runtime_error("co-simulation socket: payload over 1 GiB");
  const uint32_t sizes[2] = {static_cast<uint32_t>(h.size()), static_cast<uint32_t>(bytes)};
  write_exact(fd, sizes, sizeof(sizes));
  write_exact(fd, h.data(), h.size());
  if (bytes) write_exact(fd, data, bytes);
}

}  // namespace symsim::cosim
