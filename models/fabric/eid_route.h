// Endpoint ids (EIDs) on the UB fabric and the path they select. A PE's own EID is
// "UBPE" + pe (little-endian) + zeros (models/ascend/pe_memory.h). A relay EID names the same
// target reached through the port of a relay PE: bytes 8..11 carry relay + 1. The host gives a
// relay QP the relay EID of its target, so the SQE's rmt_eid alone tells the fabric which
// path a request takes, as on hardware where the source EID toward the relay picks the link.
#pragma once
#include <array>
#include <cstdint>

namespace symsim {

using EidBytes = std::array<uint8_t, 16>;

struct EidRoute {
  int target_pe = -1;  // -1: not a PE of this fabric
  int via_pe = -1;     // -1: direct
};

// The EID of `target_pe` reached through `via_pe` (-1: the plain EID).
inline EidBytes route_eid(int target_pe, int via_pe) {
  EidBytes e{};
  e[0] = 'U';
  e[1] = 'B';
  e[2] = 'P';
  e[3] = 'E';
  const auto pe = static_cast<uint32_t>(target_pe);
  const auto via = static_cast<uint32_t>(via_pe + 1);
  for (int i = 0; i < 4; ++i) {
    e[4 + i] = static_cast<uint8_t>(pe >> (8 * i));
    e[8 + i] = static_cast<uint8_t>(via >> (8 * i));
  }
  return e;
}

// Bytes b[0..3] as a little-endian number (the compiler makes it one load).
inline uint32_t eid_word(const uint8_t* b) {
  return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}

// Decodes an EID of a fabric of `n_pes`. A relay that is out of range, the target itself or
// malformed gives target -1 (unreachable).
inline EidRoute decode_eid(const EidBytes& e, int n_pes) {
  constexpr uint32_t kMagic = uint32_t{'U'} | uint32_t{'B'} << 8 | uint32_t{'P'} << 16 | uint32_t{'E'} << 24;
  EidRoute r;
  if (eid_word(&e[0]) != kMagic || eid_word(&e[12]) != 0) return r;
  const uint32_t pe = eid_word(&e[4]);
  const uint32_t via = eid_word(&e[8]);
  if (pe >= static_cast<uint32_t>(n_pes)) return r;
  if (via != 0 && (via - 1 >= static_cast<uint32_t>(n_pes) || via - 1 == pe)) return r;
  r.target_pe = static_cast<int>(pe);
  r.via_pe = static_cast<int>(via) - 1;
  return r;
}

}  // namespace symsim
