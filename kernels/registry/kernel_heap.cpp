#include "kernel_heap.h"

#include <map>

namespace symsim {

namespace {
std::map<std::string, KernelHeapBytes>& heaps() {
  static std::map<std::string, KernelHeapBytes> m;
  return m;
}
}  // namespace

bool register_kernel_heap(const std::string& kernel, KernelHeapBytes heap_bytes) {
  return heaps().emplace(kernel, std::move(heap_bytes)).second;
}

const KernelHeapBytes* find_kernel_heap(const std::string& kernel) {
  const auto it = heaps().find(kernel);
  return it == heaps().end() ? nullptr : &it->second;
}

}  // namespace symsim
