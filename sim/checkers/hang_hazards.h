// The hazards of a run that did not finish, reported by each family's hang diagnosis (Ascend:
// hang_report.cpp; NVIDIA: runner/nvidia_family.cpp) rather than by an observer.
#pragma once
#include "sim/catalog/hazard_id.h"

namespace symsim {

inline constexpr HazardId kDeadlock{"deadlock", "every kernel thread waits and nothing is in flight"};
inline constexpr HazardId kTimeout{"timeout",
                                   "the simulated time limit, or a poll's retry limit, passed with work still in flight"};

}  // namespace symsim
