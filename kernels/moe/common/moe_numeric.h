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

// The per-element loops below are a sixth of a run's instructions at hidden 7168 (callgrind,
// EP 8). Hosts with AVX2 run them 8 floats wide: the same operations on each element (no FMA
// is enabled), so the same bits.
#if defined(__GNUC__) && defined(__x86_64__)
#define MOE_WIDE __attribute__((target("avx2"))) inline
inline bool wide_host() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#else
#define MOE_WIDE inline
inline bool wide_host() { return false; }
#endif
#define MOE_LOOP __attribute__((always_inline)) inline

namespace detail {

MOE_LOOP void forward_loop(const uint8_t* data, uint32_t hidden, uint32_t elem_bytes, float scale, float g,
                           uint16_t* out) {
  if (elem_bytes == 1) {
    for (uint32_t i = 0; i < hidden; ++i) out[i] = f32_to_bf16(load_input(data, i, 1, scale) * g);
  } else {
    for (uint32_t i = 0; i < hidden; ++i) out[i] = f32_to_bf16(load_input(data, i, 2, scale) * g);
  }
}
MOE_WIDE void forward_wide(const uint8_t* data, uint32_t hidden, uint32_t elem_bytes, float scale, float g,
                           uint16_t* out) {
  forward_loop(data, hidden, elem_bytes, scale, g, out);
}

MOE_LOOP void accumulate_loop(float* acc, const uint16_t* y, uint32_t hidden, float weight) {
  for (uint32_t i = 0; i < hidden; ++i) acc[i] += weight * bf16_to_f32(y[i]);
}
MOE_WIDE void accumulate_wide(float* acc, const uint16_t* y, uint32_t hidden, float weight) {
  accumulate_loop(acc, y, hidden, weight);
}

MOE_LOOP void forward_accumulate_loop(float* acc, const float* x, uint32_t hidden, float g, float weight) {
  for (uint32_t i = 0; i < hidden; ++i) acc[i] += weight * bf16_to_f32(f32_to_bf16(x[i] * g));
}
MOE_WIDE void forward_accumulate_wide(float* acc, const float* x, uint32_t hidden, float g, float weight) {
  forward_accumulate_loop(acc, x, hidden, g, weight);
}

}  // namespace detail

// One expert output row in BF16: out[i] = bf16(in[i] * gain).
inline void expert_forward(const uint8_t* data, uint32_t hidden, uint32_t elem_bytes, float scale, uint32_t expert,
                           uint16_t* out) {
  const float g = expert_gain(expert);
  if (wide_host()) {
    detail::forward_wide(data, hidden, elem_bytes, scale, g, out);
  } else {
    detail::forward_loop(data, hidden, elem_bytes, scale, g, out);
  }
}

// acc[i] += weight * y[i], the top-k terms added in k order.
inline void accumulate(float* acc, const uint16_t* y, uint32_t hidden, float weight) {
  if (wide_host()) {
    detail::accumulate_wide(acc, y, hidden, weight);
  } else {
    detail::accumulate_loop(acc, y, hidden, weight);
  }
}

// expert_forward then accumulate without the BF16 row in memory (the host reference):
// acc[i] += weight * bf16(x[i] * gain), x the input in float (load_input).
inline void forward_accumulate(float* acc, const float* x, uint32_t hidden, uint32_t expert, float weight) {
  const float g = expert_gain(expert);
  if (wide_host()) {
    detail::forward_accumulate_wide(acc, x, hidden, g, weight);
  } else {
    detail::forward_accumulate_loop(acc, x, hidden, g, weight);
  }
}

}  // namespace moe
