// Routing and token contents shared by the MoE dispatch/combine drivers: which experts a token
// picks (deterministic per (rank, token), the same on every host program, so each receiver can
// work out what it must get) and the bytes of each token.
#pragma once
#include <cstdint>
#include <vector>

namespace moe_routing {

// Top-k distinct experts of token `t` of `rank` (num_experts >= topk); -1 marks a masked slot
// when `masked_every` > 0 and t % masked_every == 0 (the last slot only).
inline std::vector<int> topk_of(int rank, int t, int topk, int num_experts, int masked_every = 0) {
  std::vector<int> out;
  uint64_t s = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(rank * 1000003 + t + 1);
  while (static_cast<int>(out.size()) < topk) {
    s ^= s >> 33;
    s *= 0xff51afd7ed558ccdull;
    s ^= s >> 29;
    const int e = static_cast<int>(s % static_cast<uint64_t>(num_experts));
    bool dup = false;
    for (int x : out) dup = dup || x == e;
    if (!dup) out.push_back(e);
  }
  if (masked_every > 0 && t % masked_every == 0) out.back() = -1;
  return out;
}

// Byte i of token t of rank r.
inline uint8_t token_byte(int rank, int t, uint64_t i) {
  return static_cast<uint8_t>(rank * 97 + t * 31 + i * 7 + (i >> 8) * 3 + 1);
}

}  // namespace moe_routing
