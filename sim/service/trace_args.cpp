#include "service/trace_args.h"

#include <algorithm>
#include <stdexcept>

#include "scenario/input_error.h"

namespace symsim::service {

std::vector<int> parse_pe_list(const std::string& text, const std::string& option) {
  std::vector<int> pes;
  size_t start = 0;
  try {
    while (start <= text.size()) {
      const size_t comma = std::min(text.find(',', start), text.size());
      const std::string item = text.substr(start, comma - start);
      const auto dash = item.find('-');
      if (dash == std::string::npos) {
        pes.push_back(std::stoi(item));
      } else {
        for (int pe = std::stoi(item.substr(0, dash)); pe <= std::stoi(item.substr(dash + 1)); ++pe)
          pes.push_back(pe);
      }
      start = comma + 1;
    }
  } catch (const std::logic_error&) {
    throw InputError(option, "", "expected a PE list such as 0,2-3, got '" + text + "'");
  }
  return pes;
}

void parse_trace_window_us(const std::string& text, TraceOptions& trace) {
  const auto colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    trace.window_begin_ns = static_cast<uint64_t>(std::stod(text.substr(0, colon)) * 1000);
    trace.window_end_ns = static_cast<uint64_t>(std::stod(text.substr(colon + 1)) * 1000);
  } catch (const std::logic_error&) {
    throw InputError("--trace-window", "", "expected BEGIN:END in microseconds, got '" + text + "'");
  }
}

}  // namespace symsim::service
