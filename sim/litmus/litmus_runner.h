// Runs a litmus test under N seeds and collects the distinct final states, restricted to
// the registers and locations its condition reads.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/litmus/litmus_test.h"

namespace symsim::litmus {

struct RunOptions {
  int seeds = 1000;
  uint64_t first_seed = 1;
  uint64_t max_steps_per_run = 4000;  // spin loops that never exit are cut here
};

struct Observation {
  std::vector<Term> vars;                      // what a state lists, in this order
  std::set<std::vector<int64_t>> states;       // distinct final states of finished runs
  int finished = 0;
  int deadlocked = 0;                          // every thread blocked (e.g. at a barrier)
  int step_limited = 0;
  std::string describe(const std::vector<int64_t>& state) const;  // "P0:r1=1 x=2"
};

// The test must have no unsupported instruction.
Observation run_litmus(const LitmusTest& test, const RunOptions& options);

// Value of a condition term in a final state listed as `obs.vars`.
int64_t state_value(const Observation& obs, const std::vector<int64_t>& state, const Term& t);

}  // namespace symsim::litmus
