// FP8 for programs built by tools/symsim-nvcc: the storage types and names DeepEP-style headers
// declare, and float -> fp8 conversion (round to nearest even, as __nv_cvt_float_to_fp8) and back.
#pragma once
#include <cmath>
#include <cstdint>

#include "cuda_bf16.h"

using __nv_fp8_storage_t = unsigned char;
using __nv_fp8x2_storage_t = unsigned short;
using __nv_fp8x4_storage_t = unsigned int;
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
struct __nv_fp8_e4m3 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e4m3() = default;
  explicit __nv_fp8_e4m3(float f);
  explicit operator float() const;
};
struct __nv_fp8_e5m2 {
  __nv_fp8_storage_t __x;
};
struct __nv_fp8x2_e4m3 {
  __nv_fp8x2_storage_t __x;
};
struct __nv_fp8x4_e4m3 {
  __nv_fp8x4_storage_t __x;
};

namespace symsim::fp8 {
// E4M3: bias 7, no infinities, 0x7f NaN, largest finite 448. E5M2: bias 15, IEEE-like.
inline __nv_fp8_storage_t from_float(float f, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  const bool e4m3 = kind == __NV_E4M3;
  const int mant_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const float max_finite = e4m3 ? 448.0f : 57344.0f;
  const uint8_t sign = std::signbit(f) ? 0x80 : 0x00;
  if (std::isnan(f)) return e4m3 ? 0x7f : 0x7f;
  const auto out_of_range = static_cast<__nv_fp8_storage_t>(sign | (e4m3 ? 0x7f : 0x7c));  // NaN / infinity
  float a = std::fabs(f);
  if (std::isinf(a)) {
    if (sat != __NV_SATFINITE) return out_of_range;
    a = max_finite;
  }
  // Quantum at a's binade (subnormals share the smallest one), then round to nearest even.
  int exp = a == 0.0f ? 1 - bias : std::max(static_cast<int>(std::floor(std::log2(a))), 1 - bias);
  const float quantum = std::ldexp(1.0f, exp - mant_bits);
  float q = std::nearbyint(a / quantum);  // the default rounding mode rounds ties to even
  if (q >= static_cast<float>(2 << mant_bits)) {  // rounded up into the next binade
    ++exp;
    q /= 2;
  }
  float rounded = q * std::ldexp(1.0f, exp - mant_bits);
  if (rounded > max_finite) {  // beyond the largest finite value once rounded
    if (sat != __NV_SATFINITE) return out_of_range;
    rounded = max_finite;
  }
  if (rounded == 0.0f) return sign;
  const int e = static_cast<int>(std::floor(std::log2(rounded)));
  if (e < 1 - bias)  // subnormal
    return static_cast<__nv_fp8_storage_t>(sign | static_cast<int>(rounded / std::ldexp(1.0f, 1 - bias - mant_bits)));
  const int m = static_cast<int>(rounded / std::ldexp(1.0f, e - mant_bits)) - (1 << mant_bits);
  return static_cast<__nv_fp8_storage_t>(sign | ((e + bias) << mant_bits) | m);
}
inline float to_float(__nv_fp8_storage_t v, __nv_fp8_interpretation_t kind) {
  const bool e4m3 = kind == __NV_E4M3;
  const int mant_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const int e = (v & 0x7f) >> mant_bits, m = v & ((1 << mant_bits) - 1);
  const float sign = (v & 0x80) ? -1.0f : 1.0f;
  if (e4m3 && (v & 0x7f) == 0x7f) return NAN;
  if (!e4m3 && e == 31) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(static_cast<float>(m), 1 - bias - mant_bits);
  return sign * std::ldexp(static_cast<float>(m + (1 << mant_bits)), e - bias - mant_bits);
}
}  // namespace symsim::fp8

inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return symsim::fp8::from_float(x, sat, kind);
}
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return static_cast<__nv_fp8x2_storage_t>(symsim::fp8::from_float(x.x, sat, kind) |
                                           (symsim::fp8::from_float(x.y, sat, kind) << 8));
}
inline __nv_fp8_e4m3::__nv_fp8_e4m3(float f) : __x(symsim::fp8::from_float(f, __NV_SATFINITE, __NV_E4M3)) {}
inline __nv_fp8_e4m3::operator float() const { return symsim::fp8::to_float(__x, __NV_E4M3); }
