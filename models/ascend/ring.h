// Ring arithmetic shared by the kernel-side shim and the engine. Producer and consumer
// indices are monotonic 32-bit counters (the doorbell carries the unmasked producer index);
// slot = index mod depth; the phase of a pass is (index / depth) & 1. A ring's depth is a power
// of two (the scenario checks `udma.sq_depth_bb` / `udma.cq_depth`, `UdmaEngine::create_qp`
// refuses any other), so both are read off the index's bits: no division on the put path.
#pragma once
#include <cstdint>

namespace symsim::udma {

constexpr bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

constexpr uint32_t ring_slot(uint32_t index, uint32_t depth) { return index & (depth - 1); }
constexpr uint32_t ring_phase(uint32_t index, uint32_t depth) { return (index & depth) != 0 ? 1u : 0u; }

// The owner bit the engine writes into the CQE at monotonic position `index`: the opposite of
// the poller's phase for that pass, so a stale entry from the previous pass never matches.
constexpr bool cqe_owner_for(uint32_t index, uint32_t depth) { return ring_phase(index, depth) == 0; }
// What the poller compares: an entry is ready when its owner bit differs from the phase.
constexpr bool cqe_ready(bool owner, uint32_t index, uint32_t depth) {
  return static_cast<uint32_t>(owner) != ring_phase(index, depth);
}

// Entries in use between consumer `tail` and producer `head` (wrap-safe).
constexpr uint32_t ring_used(uint32_t head, uint32_t tail) { return head - tail; }

// CANN SHMEM's credit rule: a post of `bb` WQEBBs may proceed iff
// head + bb - tail + guard < depth.
constexpr bool sq_has_credit(uint32_t head, uint32_t tail, uint32_t bb, uint32_t guard,
                             uint32_t depth) {
  return static_cast<uint64_t>(head - tail) + bb + guard < depth;
}

// CQE entry_idx is a 16-bit "next WQEBB" counter; recover the monotonic 32-bit SQ tail
// nearest to (and not behind) `tail`.
constexpr uint32_t unwrap16(uint32_t tail, uint16_t entry_idx) {
  return tail + static_cast<uint16_t>(entry_idx - static_cast<uint16_t>(tail));
}

}  // namespace symsim::udma
