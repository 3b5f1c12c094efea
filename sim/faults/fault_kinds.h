// The fault kinds the injector implements (fault_injector.cpp registers each beside the hook
// that injects it), with the keys a fault of the kind may have and what it does: `symsim list
// faults` prints these, and the scenario reader (fault_spec.cpp) accepts these keys.
#pragma once
#include "sim/catalog/fault_kind.h"

namespace symsim::fault_kind {

inline constexpr FaultKind kCqOverflow{"cq_overflow", family::kAscend, "@qp depth stall",
                                       "shrink a CQ or stall its consumer"};
inline constexpr FaultKind kTornBlock{
    "torn_block", family::kAscend, "@wqe split_bytes first delay_ns",
    "deliver a 512 B block non-atomically (parts at different times, or flag part first)"};
inline constexpr FaultKind kDropDoorbell{"drop_doorbell", family::kAscend, "@qp probability count queue",
                                         "lose a doorbell store (SQ or CQ)"};
inline constexpr FaultKind kDelayDoorbell{"delay_doorbell", family::kAscend, "@qp probability count queue delay_ns",
                                          "deliver a doorbell store late"};
inline constexpr FaultKind kLinkDegrade{"link_degrade", family::kAscend,
                                        "link pe window_us bandwidth_factor extra_latency_ns",
                                        "reduce a link's bandwidth or add latency"};
inline constexpr FaultKind kLinkDown{"link_down", family::kAscend, "link pe window_us",
                                     "take a link out of service (for a window: traffic waits; for good: WQEs fail)"};
inline constexpr FaultKind kReorder{"reorder", family::kAscend, "@wqe delay_ns",
                                    "delay a WQE's landing so later WQEs (other QPs, relaxed ordering) overtake it"};
inline constexpr FaultKind kCqeError{"cqe_error", family::kAscend, "@wqe status substatus",
                                     "complete a WQE with an error CQE"};
inline constexpr FaultKind kStraggler{"straggler", family::kAscend, "pe core window_us slowdown",
                                      "slow down a PE or core"};
inline constexpr FaultKind kBitFlip{"bit_flip", family::kAscend, "@wqe bits", "flip a bit in data on the wire"};

}  // namespace symsim::fault_kind
