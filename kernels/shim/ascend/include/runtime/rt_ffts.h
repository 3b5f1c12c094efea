// The part of CANN's runtime/rt_ffts.h that example utilities use: the rtError_t codes.
#pragma once
#include <cstdint>

using rtError_t = int32_t;
constexpr rtError_t RT_ERROR_NONE = 0;
