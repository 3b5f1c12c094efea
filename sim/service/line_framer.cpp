#include "sim/service/line_framer.h"

#include <cstring>

namespace symsim::service {

void LineFramer::feed(const char* data, size_t bytes, std::vector<Item>& out) {
  const char* p = data;
  const char* end = data + bytes;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    if (m_discarding) {
      if (nl) m_discarding = false;  // the over-long line ends here
    } else {
      const size_t room = m_max_line_bytes - m_partial.size();
      const size_t take = static_cast<size_t>(stop - p);
      if (take > room) {
        // Report once, as soon as the limit is crossed, so no memory grows with the line.
        m_partial.clear();
        out.push_back({true, {}});
        m_discarding = nl == nullptr;
      } else {
        m_partial.append(p, take);
        if (nl) {
          if (!m_partial.empty() && m_partial.back() == '\r') m_partial.pop_back();
          if (m_partial.find_first_not_of(" \t") != std::string::npos)
            out.push_back({false, std::move(m_partial)});
          m_partial.clear();
        }
      }
    }
    p = nl ? nl + 1 : end;
  }
}

}  // namespace symsim::service
