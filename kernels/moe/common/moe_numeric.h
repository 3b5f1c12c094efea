// The arithmetic of the MoE workload, shared by the kernels and the host reference so both
// round the same way: BF16 conversion (round to nearest even), INT8 dequantisation, the
// stand-in expert (a per-expert gain) and the weighted top-k sum of combine.
#pragma once
#include <cstdint>
#include <cstring>

namespace moe {

// Branch-free, so that the loops below vectorise (they run for every element of every token).
inline uint16_t f32_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u);
  const bool special = (u & 0x7f800000u) == 0x7f800000u;  // inf / nan unchanged
  return static_cast<uint16_t>((special ? u : rounded) >> 16);
}

inline float bf16_to_f32(uint16_t h) {
  const uint32_t u = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Input element `i` of a dispatched token as the expert sees it, in float.
inline float load_input(const uint8_t* data, uint32_t i, uint32_t elem_bytes, float scale) {
  if (elem_bytes == 1) return static_cast<float>(static_cast<int8_t>(data[i])) * scale;
  uint16_t h;
  std::memcpy(&h, data + 2 * i, 2);
  return bf16_to_f32(h);
}

// The stand-in expert: a gain that depends on the global expert id (exact in binary).
inline float expert_gain(uint32_t expert) { return 1.0f + static_cast<float>(expert % 8u) * 0.125f; }

// One expert output row in BF16: out[i] = bf16(in[i] * gain).
inline void expert_forward(const uint8_t* data, uint32_t hidden, uint32_t elem_bytes, float scale, uint32_t expert,
                           uint16_t* out) {
  const float g = expert_gain(expert);
  if (elem_bytes == 1) {
    for (uint32_t i = 0; i < hidden; ++i) out[i] = f32_to_bf16(load_input(data, i, 1, scale) * g);
  } else {
    for (uint32_t i = 0; i < hidden; ++i) out[i] = f32_to_bf16(load_input(data, i, 2, scale) * g);
  }
}

// acc[i] += weight * y[i], the top-k terms added in k order.
inline void accumulate(float* acc, const uint16_t* y, uint32_t hidden, float weight) {
  for (uint32_t i = 0; i < hidden; ++i) acc[i] += weight * bf16_to_f32(y[i]);
}

}  // namespace moe
