#include "sim/service/event_sink.h"

#include <unistd.h>

#include <cerrno>

namespace symsim::service {

void EventSink::emit(const nlohmann::json& event) {
  if (m_fd < 0) return;
  const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(m_fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      m_fd = -1;  // the reader is gone: keep simulating, results still go to the run folder
      return;
    }
    done += static_cast<size_t>(n);
  }
}

}  // namespace symsim::service
