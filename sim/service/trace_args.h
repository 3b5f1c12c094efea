// Trace filters as the command line and the protocol write them: "0,2-3" (PEs) and
// "BEGIN:END" (a window in simulated microseconds). Both are bounded: PE ids lie in
// [0, kMaxPes) (a range such as "0-2147483647" is refused, never expanded), and a window is
// finite, 0 <= BEGIN < END <= kMaxTraceWindowUs.
#pragma once
#include <string>
#include <vector>

#include "sim/runner/runner.h"

namespace symsim::service {

// The latest simulated time a trace window may name (the largest max_sim_time_us, 1e12 us).
constexpr double kMaxTraceWindowUs = 1e12;

// "0,2-3" -> {0, 2, 3} (sorted, each PE once); throws InputError naming `option`.
std::vector<int> parse_pe_list(const std::string& text, const std::string& option);
// "BEGIN:END" in us -> trace.window_*_ns; throws InputError naming `option`.
void parse_trace_window_us(const std::string& text, TraceOptions& trace, const std::string& option = "--trace-window");

}  // namespace symsim::service
