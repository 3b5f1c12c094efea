// FP8 storage types for programs built by tools/symsim-nvcc: the types and names DeepEP-style
// headers declare. Conversions to and from fp8 are not in the shim (a use is a compile error).
#pragma once
#include <cstdint>

#include "cuda_bf16.h"

using __nv_fp8_storage_t = unsigned char;
using __nv_fp8x2_storage_t = unsigned short;
using __nv_fp8x4_storage_t = unsigned int;
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
struct __nv_fp8_e4m3 {
  __nv_fp8_storage_t __x;
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
