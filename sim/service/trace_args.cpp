#include "sim/service/trace_args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario.h"

namespace symsim::service {

namespace {

// A PE id: decimal digits only, below kMaxPes (no sign, no spaces, no overflow).
bool parse_pe(const std::string& text, int& pe) {
  if (text.empty() || text.size() > 9) return false;
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  if (value >= kMaxPes) return false;
  pe = static_cast<int>(value);
  return true;
}

// A finite decimal number of microseconds, the whole text consumed.
bool parse_us(const std::string& text, double& us) {
  if (text.empty() || text.find_first_of(" \t\n") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  us = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno == 0 && std::isfinite(us);
}

}  // namespace

std::vector<int> parse_pe_list(const std::string& text, const std::string& option) {
  std::set<int> pes;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const auto dash = item.find('-');
    int first = 0, last = 0;
    const bool ok = dash == std::string::npos
                        ? parse_pe(item, first) && parse_pe(item, last)
                        : parse_pe(item.substr(0, dash), first) && parse_pe(item.substr(dash + 1), last);
    if (!ok)
      throw InputError(option, "", fmt::format("expected a PE list such as 0,2-3 with PE ids 0..{}, got '{}'",
                                               kMaxPes - 1, text.size() > 64 ? text.substr(0, 64) + "..." : text));
    if (first > last)
      throw InputError(option, "", fmt::format("the range '{}' is empty: its first PE is after its last", item));
    for (int pe = first; pe <= last; ++pe) pes.insert(pe);  // at most kMaxPes iterations per item
    start = comma + 1;
  }
  return {pes.begin(), pes.end()};
}

void parse_trace_window_us(const std::string& text, TraceOptions& trace, const std::string& option) {
  const auto colon = text.find(':');
  double begin_us = 0, end_us = 0;
  const std::string shown = text.size() > 64 ? text.substr(0, 64) + "..." : text;
  if (colon == std::string::npos || !parse_us(text.substr(0, colon), begin_us) || !parse_us(text.substr(colon + 1), end_us))
    throw InputError(option, "", fmt::format("expected BEGIN:END in microseconds, got '{}'", shown));
  if (begin_us < 0 || end_us > kMaxTraceWindowUs)
    throw InputError(option, "", fmt::format("'{}': the window must lie within 0..{:g} us", shown, kMaxTraceWindowUs));
  if (!(begin_us < end_us)) throw InputError(option, "", fmt::format("'{}': END must be after BEGIN", shown));
  trace.window_begin_ns = static_cast<uint64_t>(begin_us * 1000);
  trace.window_end_ns = static_cast<uint64_t>(end_us * 1000);
}

}  // namespace symsim::service
