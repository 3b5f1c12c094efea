// Optional per-kernel declarations that let validation refuse what can never run, with the
// reason, instead of the run failing (sim/scenario/scenario.cpp, resource_estimate.h):
//  - the symmetric heap one PE's host driver asks for (aclshmem local_mem_size) as a function
//    of the arguments and the PE count: refused when hbm.bytes cannot hold it; and the part
//    of it the kernel writes, which the memory estimate counts (heap pages materialise on touch);
//  - argument combinations that are each in range but never work together (bytes < ops).
// A host driver that declares either calls the same function itself, so they never disagree.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "kernels/registry/kernel_registry.h"

namespace symsim {

struct KernelHeap {
  uint64_t reserved_bytes = 0;  // what the host driver asks for
  uint64_t touched_bytes = 0;   // what the kernel and its driver write (resident memory)
};
using KernelHeapBytes = std::function<KernelHeap(const KernelArgs&, int pes)>;

struct KernelArgProblem {
  std::string field;  // an argument name, or "pes"
  std::string what;   // why the combination cannot work
};
using KernelArgsCheck = std::function<std::optional<KernelArgProblem>(const KernelArgs&, int pes)>;

bool register_kernel_heap(const std::string& kernel, KernelHeapBytes heap_bytes);
bool register_kernel_args_check(const std::string& kernel, KernelArgsCheck check);
// The kernel's declarations, or null.
const KernelHeapBytes* find_kernel_heap(const std::string& kernel);
const KernelArgsCheck* find_kernel_args_check(const std::string& kernel);

}  // namespace symsim

#define SYMSIM_REGISTER_KERNEL_HEAP(id, fn) \
  static const bool symsim_heap_registered_##id = ::symsim::register_kernel_heap(#id, fn)
#define SYMSIM_REGISTER_KERNEL_ARGS_CHECK(id, fn) \
  static const bool symsim_args_check_registered_##id = ::symsim::register_kernel_args_check(#id, fn)
