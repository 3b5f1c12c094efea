// CANN's 16-bit floating-point element types on the host compiler: `half` is IEEE binary16
// (GCC's _Float16); `bfloat16_t` is float's upper 16 bits (8-bit exponent, 7-bit fraction),
// converted from float with round-to-nearest-even as the device does.
#pragma once
#include <cstdint>
#include <cstring>

using half = _Float16;

struct bfloat16_t {
  uint16_t bits = 0;

  bfloat16_t() = default;
  bfloat16_t(float f) {  // NOLINT(google-explicit-constructor): converts like a built-in float type
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0) {
      bits = static_cast<uint16_t>((u >> 16) | 0x0040u);  // NaN stays a (quiet) NaN
    } else {
      u += 0x7FFFu + ((u >> 16) & 1u);
      bits = static_cast<uint16_t>(u >> 16);
    }
  }
  operator float() const {  // NOLINT(google-explicit-constructor)
    const uint32_t u = uint32_t{bits} << 16;
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
  }
};
static_assert(sizeof(bfloat16_t) == 2 && sizeof(half) == 2, "16-bit element types");
