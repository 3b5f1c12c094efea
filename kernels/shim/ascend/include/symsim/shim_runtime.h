// The shim's per-simulation state and the entry points the scenario runner uses: attach the
// shim to a platform, run one host program per PE as a coroutine, and read what happened.
#pragma once
#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/core/exec_context.h"
#include "models/core/time.h"

namespace symsim {
class AscendSystem;
}

namespace symsim::shim {

// A kernel block that stopped on a trap.
struct TrapRecord {
  int pe;
  int core;
  std::string kernel;
  std::string reason;
  Ps time_ps;
};

// What a coroutine is blocked on, for hang diagnosis.
struct WaitRecord {
  int pe;
  int core;  // -1: host program
  std::string what;
};

// Sets up the shim over `sys` (one simulation per process) and spawns one host coroutine per
// PE running `host_main(pe)`. Must be called before sc_start.
void start(AscendSystem& sys, std::function<void(int pe)> host_main);
// Ends the simulation's shim state (after sc_start returns).
void stop();

bool all_hosts_finished();
const std::vector<TrapRecord>& traps();
// Coroutines that have not finished and what each waits on.
std::vector<WaitRecord> waiting();
// Simulated time of the last kernel block or host step that finished.
Ps last_activity_ps();

}  // namespace symsim::shim
