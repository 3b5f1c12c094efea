#include "kernels/registry/kernel_constraints.h"

#include <map>

namespace symsim {

namespace {
template <typename F>
std::map<std::string, F>& table() {
  static std::map<std::string, F> m;
  return m;
}
template <typename F>
const F* find_in(const std::string& kernel) {
  const auto it = table<F>().find(kernel);
  return it == table<F>().end() ? nullptr : &it->second;
}
}  // namespace

bool register_kernel_heap(const std::string& kernel, KernelHeapBytes heap_bytes) {
  return table<KernelHeapBytes>().emplace(kernel, std::move(heap_bytes)).second;
}
bool register_kernel_args_check(const std::string& kernel, KernelArgsCheck check) {
  return table<KernelArgsCheck>().emplace(kernel, std::move(check)).second;
}
const KernelHeapBytes* find_kernel_heap(const std::string& kernel) {
  return find_in<KernelHeapBytes>(kernel);
}
const KernelArgsCheck* find_kernel_args_check(const std::string& kernel) {
  return find_in<KernelArgsCheck>(kernel);
}

}  // namespace symsim
