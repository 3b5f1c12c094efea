// The timing perturbations of schedule exploration: per platform family, the knobs whose
// values the ordering rules do not depend on (path skew, reorder windows, engine, doorbell and
// NIC speeds, CQE write delay), each with the range explored, and a seed -> values function.
// Every value is legal: the models enforce every ordering the rules promise whatever these
// are, so a hazard a perturbed run shows is one the hardware is allowed to show.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace symsim::explore {

struct Knob {
  const char* key;  // platform parameter (dotted, without "platform.")
  double lo, hi;    // explored range
  const char* why;  // which timing freedom it stands for
};

// The knobs of `family` ("ascend", "nvidia"); empty for an unknown family.
const std::vector<Knob>& knobs_of(const std::string& family);

// The `--set` overrides of schedule `seed` for scenario `s` (only knobs its platform has and
// the scenario does not override itself). Schedule 0 is the scenario as written.
std::vector<std::string> perturbation(const Scenario& s, uint64_t seed);

}  // namespace symsim::explore
