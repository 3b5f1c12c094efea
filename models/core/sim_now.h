// The current SystemC time in picoseconds, read inline: sc_time_stamp() is a library call,
// and the put path asks for the time about 17 times per WQE.
#pragma once
#include <systemc>

#include "models/core/time.h"

namespace symsim {

inline Ps sim_now_ps() { return static_cast<Ps>(sc_core::sc_get_curr_simcontext()->time_stamp().value()); }

}  // namespace symsim
