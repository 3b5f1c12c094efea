// The worker's side of the events pipe: one JSON object per line, written whole.
#pragma once
#include <nlohmann/json.hpp>

namespace symsim::service {

class EventSink {
 public:
  explicit EventSink(int fd = -1) : m_fd(fd) {}
  bool active() const { return m_fd >= 0; }
  // Writes `event` and a newline; a closed pipe (the server went away) turns the sink off.
  void emit(const nlohmann::json& event);

 private:
  int m_fd;
};

}  // namespace symsim::service
