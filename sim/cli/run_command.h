// `symsim run`: loads and checks everything that can be checked before the simulation (the
// scenario, the trace filters against it, that every output can be written, the memory
// estimate against --max-memory), runs it under the optional wall-time limit, then writes
// result.json (and the trace) checked and atomically.
#pragma once
#include <string>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace symsim::cli {

struct RunRequest {
  std::string file;
  LoadOptions load;
  std::string out_dir;       // empty: symsim-out/<safe scenario name>
  TraceOptions trace;        // path; pes/window filled from the texts below
  std::string trace_pes;     // --trace-pes text
  std::string trace_window;  // --trace-window text
  std::string max_memory;    // --max-memory text; empty: MemAvailable; "unlimited": no check
  std::string max_wall_s;    // --max-wall-s text; empty: no limit
};

// The folder `run` writes into when --out is not given.
std::string default_out_dir(const Scenario& s);

// Returns the exit code; throws InputError (exit 2) and io::OutputError (its exit_code()).
int run_command(RunRequest request);

}  // namespace symsim::cli
