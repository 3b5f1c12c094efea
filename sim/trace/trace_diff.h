// `symsim trace diff A B`: compares two traces by structure (docs/trace.md, "Comparing
// traces"): the same tracks; on each, the same slices (names, nesting depth, count, order) and
// instants; the same counter steps (values exact); the same flow paths. Times (starts and
// durations) match when they differ by at most the tolerance: time_tolerance_pct percent of the
// larger of the two, or 1 ps (the trace's resolution).
#pragma once
#include <string>
#include <vector>

#include "sim/trace/trace_model.h"

namespace symsim::trace {

struct DiffOptions {
  double time_tolerance_pct = 0;  // 0: times must be equal
};

// One line per difference, in a fixed order (tracks, counters, flows); empty when they match.
std::vector<std::string> diff_traces(const TraceShape& a, const TraceShape& b, const DiffOptions& options);

// The command: reads both files (InputError on a malformed one), prints the differences (at
// most `max_lines`) and returns 0 when they match, 1 when they differ.
int trace_diff_main(const std::string& path_a, const std::string& path_b, const DiffOptions& options,
                    size_t max_lines = 40);

}  // namespace symsim::trace
