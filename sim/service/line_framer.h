// Splits a byte stream into JSON lines of bounded length (the service protocol's framing). An
// over-long line is reported once and skipped up to its newline, so the connection stays usable.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace symsim::service {

class LineFramer {
 public:
  struct Item {
    bool too_long = false;  // true: a line past the limit was dropped (text is empty)
    std::string text;       // the line, without "\n" (and without a trailing "\r")
  };

  explicit LineFramer(size_t max_line_bytes) : m_max_line_bytes(max_line_bytes) {}

  // Appends the complete lines in `data` (and a notice per over-long line) to `out`; keeps a
  // partial line for the next call. Blank lines are skipped.
  void feed(const char* data, size_t bytes, std::vector<Item>& out);

  // Bytes held for a line not yet complete.
  size_t pending_bytes() const { return m_partial.size(); }

 private:
  size_t m_max_line_bytes;
  std::string m_partial;
  bool m_discarding = false;  // inside an over-long line, dropping bytes up to its newline
};

}  // namespace symsim::service
