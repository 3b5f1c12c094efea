// bfloat16 for programs built by tools/symsim-nvcc: the storage type with conversions to and
// from float (round to nearest even, as __float2bfloat16) and arithmetic through float.
#pragma once
#include <cstdint>
#include <cstring>

#include "cuda_runtime.h"

struct __nv_bfloat16 {
  uint16_t __x;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) : __x(from_float(f)) {}  // NOLINT: implicit, as CUDA's
  __nv_bfloat16(double f) : __x(from_float(static_cast<float>(f))) {}  // NOLINT
  __nv_bfloat16(int v) : __x(from_float(static_cast<float>(v))) {}     // NOLINT
  operator float() const {  // NOLINT
    const uint32_t w = static_cast<uint32_t>(__x) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  static uint16_t from_float(float f) {
    uint32_t w;
    std::memcpy(&w, &f, 4);
    if ((w & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((w >> 16) | 0x40);  // quiet NaN
    w += 0x7fffu + ((w >> 16) & 1u);
    return static_cast<uint16_t>(w >> 16);
  }
  __nv_bfloat16& operator+=(float v) { return *this = __nv_bfloat16(float(*this) + v); }
  __nv_bfloat16& operator*=(float v) { return *this = __nv_bfloat16(float(*this) * v); }
};
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__nv_bfloat16(a), __nv_bfloat16(b)}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 v) { return {__nv_bfloat16(v.x), __nv_bfloat16(v.y)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 v) { return {float(v.x), float(v.y)}; }
