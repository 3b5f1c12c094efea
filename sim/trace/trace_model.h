// A trace file read back as its structure (docs/trace.md, "Comparing traces"): tracks named by
// process and thread name, each track's complete slices with their nesting depth, instants,
// counter steps and flow paths. `symsim trace diff` compares two of these; `symsim report`
// reads a trace through it to check the file before plotting.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace symsim::trace {

// Times are whole picoseconds (the trace writes exact decimal microseconds of them), so that
// "ends where the next starts" is exact.
struct SliceShape {
  std::string name;
  int depth = 0;  // 0 for a slice no other slice on its track encloses
  int64_t ts_ps = 0, dur_ps = 0;
};

struct InstantShape {
  std::string name;
  int64_t ts_ps = 0;
};

struct CounterStep {
  int64_t ts_ps = 0;
  std::string values;  // the args, "key=value" joined by ","
};

struct TrackShape {
  std::vector<SliceShape> slices;      // in (start, longest first) order
  std::vector<InstantShape> instants;  // in file order (the writer's time order)
};

struct TraceShape {
  std::map<std::string, TrackShape> tracks;  // "pe 0/qp 1.0 sq #2", "fabric/pe0->l1.0"
  std::map<std::string, std::vector<CounterStep>> counters;  // "pe 0/qp 1.0 sq"
  // Each flow as the tracks its steps bind to, "s pe 0/aiv 0 > t pe 0/qp 1.0 sq > ...",
  // keyed by flow id.
  std::map<uint64_t, std::string> flows;
  bool truncated = false;
  uint64_t events = 0;  // non-metadata events
};

// Reads and checks `path`. Throws InputError naming the file, the JSON pointer of the first
// malformed event and what is wrong (exit 2).
TraceShape read_trace_shape(const std::string& path);

}  // namespace symsim::trace
