// Trace filters as the command line and the protocol write them: "0,2-3" (PEs) and
// "BEGIN:END" (a window in simulated microseconds).
#pragma once
#include <string>
#include <vector>

#include "runner/runner.h"

namespace symsim::service {

// "0,2-3" -> {0, 2, 3}; throws InputError naming `option`.
std::vector<int> parse_pe_list(const std::string& text, const std::string& option);
// "BEGIN:END" in us -> trace.window_*_ns; throws InputError.
void parse_trace_window_us(const std::string& text, TraceOptions& trace);

}  // namespace symsim::service
