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
class AivCore;
class AscendSystem;
}

namespace symsim::shim {

namespace detail {
// The running simulation's system, from start() to stop(). system(), has_system() and core()
// are inline: shim code calls them about 120 times per MoE WQE, and the shim is built
// position-independent, where a call to another file's function is never inlined.
inline AscendSystem* g_system = nullptr;
// A shim call of the running coroutine, unless it is part of an observation or pipe sync
// (ExecContext::shim_calls).
inline void count_call() {
  ExecContext* x = current_exec();
  if (x && x->uncounted == 0) ++x->shim_calls;
}
[[noreturn]] void no_core();  // throws: a device API was called outside a kernel
}  // namespace detail

inline AscendSystem& system() {
  detail::count_call();
  return *detail::g_system;
}
inline bool has_system() { return detail::g_system != nullptr; }
// The running block's core (throws on a host thread).
inline AivCore& core() {
  detail::count_call();
  ExecContext* x = current_exec();
  if (!x || !x->core) detail::no_core();
  return *x->core;
}

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
  int pe = -1;
  int core = -1;  // -1: host program
  std::string what;
  // A polling block: the address it re-reads, the value it waits for (when the shim knows it),
  // how long it has polled, and the kernel call that polls.
  std::string kernel;
  const void* addr = nullptr;
  uint64_t bytes = 0;
  std::string expected;  // "" when the kernel's own loop decides (plain dcci / ld_dev polls)
  uint64_t polls = 0;
  Ps since_ps = 0;
  const char* file = nullptr;
  int line = 0;
  int qp_slot = -1;  // a CQ poll: the QP it drains
  int qp = -1;
  uint32_t cqe_index = 0;
  bool polling = false;
  bool in_barrier = false;
};

// Sets up the shim over `sys` (one simulation per process) and spawns one host coroutine per
// PE running `host_main(pe)`. Must be called before sc_start.
void start(AscendSystem& sys, std::function<void(int pe)> host_main);
// Ends the simulation's shim state (after sc_start returns).
void stop();

bool all_hosts_finished();
const std::vector<TrapRecord>& traps();
// Coroutines that have not finished and what each waits on at `at_ps`.
std::vector<WaitRecord> waiting(Ps at_ps);
// Simulated time of the last kernel block or host step that finished.
Ps last_activity_ps();
// Set when the shim stopped the simulation because no coroutine could make progress (every
// block polls or waits, every host waits, engines idle, nothing in flight): a deadlock.
bool deadlock_detected();
// Polls that passed the shim's retry limit (the kernel trapped), as they stood then.
const std::vector<WaitRecord>& gave_up();

}  // namespace symsim::shim
