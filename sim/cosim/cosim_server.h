// The simulator's side of host co-simulation. Each PE's host program is a separate process
// (started by `symsim launch`) that connects to a Unix socket; inside the simulation, the
// `cosim_host` kernel's host coroutine of each PE executes that process's host API calls
// (ACL runtime, SHMEM control plane, kernel launches) on the shim in simulated time. The
// simulation waits for the next call of a host program: host-side computation costs no
// simulated time, as in-process. Host programs must therefore synchronise through SHMEM
// calls, not through channels the simulator cannot see.
#pragma once
#include <string>

#include "sim/service/event_sink.h"

namespace symsim::cosim {

// Before run_scenario: listens on `socket_path` and emits a `cosim_ready` event so the
// launcher starts the host programs. The PEs' host coroutines accept `n_pes` connections
// (waiting at most `connect_timeout_s`).
void serve_host_programs(const std::string& socket_path, int n_pes, service::EventSink& sink,
                         double connect_timeout_s = 60.0);

}  // namespace symsim::cosim
