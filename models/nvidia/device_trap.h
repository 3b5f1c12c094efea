// A CUDA thread stopped the kernel (trap, an illegal address, a malformed call): the whole
// launch ends with this reason, as a sticky error ends a grid on the GPU.
#pragma once
#include <stdexcept>

namespace symsim::nv {

struct DeviceTrap : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace symsim::nv
