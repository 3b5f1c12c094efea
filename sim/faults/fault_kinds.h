// The fault kinds the injector implements (fault_injector.cpp registers each beside the hook
// that injects it), with what each does: `symsim list faults` prints these.
#pragma once
#include "catalog/fault_kind.h"

namespace symsim::fault_kind {

inline constexpr FaultKind kCqOverflow{"cq_overflow", family::kAscend, "shrink a CQ or stall its consumer"};
inline constexpr FaultKind kTornBlock{
    "torn_block", family::kAscend, "deliver a 512 B block non-atomically (parts at different times, or flag part first)"};
inline constexpr FaultKind kDropDoorbell{"drop_doorbell", family::kAscend, "lose a doorbell store (SQ or CQ)"};
inline constexpr FaultKind kDelayDoorbell{"delay_doorbell", family::kAscend, "deliver a doorbell store late"};
inline constexpr FaultKind kLinkDegrade{"link_degrade", family::kAscend, "reduce a link's bandwidth or add latency"};
inline constexpr FaultKind kLinkDown{"link_down", family::kAscend,
                                     "take a link out of service (for a window: traffic waits; for good: WQEs fail)"};
inline constexpr FaultKind kReorder{"reorder", family::kAscend,
                                    "delay a WQE's landing so later WQEs (other QPs, relaxed ordering) overtake it"};
inline constexpr FaultKind kCqeError{"cqe_error", family::kAscend, "complete a WQE with an error CQE"};
inline constexpr FaultKind kStraggler{"straggler", family::kAscend, "slow down a PE or core"};
inline constexpr FaultKind kBitFlip{"bit_flip", family::kAscend, "flip a bit in data on the wire"};

}  // namespace symsim::fault_kind
