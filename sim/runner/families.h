// The platform families this build knows (one file each: ascend_family.cpp, nvidia_family.cpp).
#pragma once
#include "sim/runner/platform_family.h"

namespace symsim {

const PlatformFamily& ascend_family();
const PlatformFamily& nvidia_family();

}  // namespace symsim
