// The end of a one-shot process: `symsim run`, `symsim-bench moe` and `symsim-bench nvidia` run one
// simulation, write what it gave, and exit. Destroying the run's state first (the platform, its
// coroutine stacks, its sparse memory, the observers, the result's JSON) is work no output
// depends on: at MoE EP 256 about 0.7 CPU-s of munmap and free on the simulation's thread
// (docs/performance.md, sessions 30, 34 and 35). So such a process asks run_scenario to keep
// that state (RunEnd::kKept) and, once its outputs are written and flushed, ends with it still
// alive; the kernel takes the memory back at the exit.
//
// A process that runs more (the service's workers, tests, the benchmarks' forked children) does
// not call these and tears down as before.
#pragma once

#include "sim/runner/runner.h"

namespace symsim {

// RunEnd::kKept, unless SYMSIM_FULL_TEARDOWN=1 (for a leak checker's user: valgrind's memcheck
// would count the kept state as still reachable) or this is a sanitizer build (LeakSanitizer's
// report is the point there). "0" or unset keeps; any other value exits 2, as the other
// SYMSIM_* switches do (docs/cli.md, Environment).
RunEnd one_shot_run_end();

// When `out` holds a kept run: flushes std::cout, std::cerr and stdio, then std::exit(rc). The
// handlers registered with atexit still run (SYMSIM_COLD_PAGES_STATS' counts, gcov) and so do
// the destructors of static objects; what lives on the stack (the run's state, the result's
// JSON, sc_main's locals) and SystemC's end after sc_main are skipped. Otherwise returns, and
// the caller returns rc as before. Call it only after every output of the process is written.
void exit_if_kept(const RunOutput& out, int rc);

}  // namespace symsim
