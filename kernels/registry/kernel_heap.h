// Optional per-kernel declaration of the symmetric heap one PE's host driver asks for (what it
// passes to aclshmem init as local_mem_size), as a function of the kernel's arguments and the
// PE count. Validation refuses arguments whose heap cannot fit hbm.bytes, and the memory
// estimate counts it (sim/scenario/resource_estimate.h). A host driver that declares it calls
// the same function for its setup, so the two never disagree.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "kernel_registry.h"

namespace symsim {

using KernelHeapBytes = std::function<uint64_t(const KernelArgs&, int pes)>;

bool register_kernel_heap(const std::string& kernel, KernelHeapBytes heap_bytes);
// The kernel's declaration, or null.
const KernelHeapBytes* find_kernel_heap(const std::string& kernel);

}  // namespace symsim

#define SYMSIM_REGISTER_KERNEL_HEAP(id, fn) \
  static const bool symsim_heap_registered_##id = ::symsim::register_kernel_heap(#id, fn)
