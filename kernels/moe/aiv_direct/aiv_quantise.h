// INT8 quantisation in the AIV-direct dispatch (variant 3): the device receives BF16 tokens and
// quantises each element with the token's scale, q = round(x / scale), as the published fused
// dispatch does before it sends INT8. The workload's tokens are INT8 values q with a per-token
// scale s (moe_workload.h); the BF16 input the host hands variant 3 is bf16(q * s), whose rounding
// error is at most |q s| 2^-9 <= s / 4, so round(x / s) gives back exactly q and the dispatched
// bytes are the workload's. The value uses the workload's scale; the vector pipe is charged the
// operator's dynamic quantisation (moe_vector_cost.h: Abs and a row maximum first, scale 127 /
// max), whose own scale would give different INT8 bytes than the host checks.
#pragma once
#include <cmath>
#include <cstdint>

#include "../common/moe_numeric.h"

namespace moe::aiv {

// The host's BF16 input element for INT8 value q and scale s.
inline uint16_t bf16_input(int8_t q, float scale) { return f32_to_bf16(static_cast<float>(q) * scale); }

// The device's quantisation of one element (Muls by 1/scale, Cast to INT8 rounding to nearest).
inline int8_t quantise(uint16_t x, float inv_scale) {
  return static_cast<int8_t>(std::nearbyint(bf16_to_f32(x) * inv_scale));
}

}  // namespace moe::aiv
