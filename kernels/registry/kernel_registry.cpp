#include "kernels/registry/kernel_registry.h"

#include <mutex>
#include <stdexcept>

namespace symsim {

double KernelArgs::number(const std::string& name) const {
  auto it = m_values.find(name);
  if (it == m_values.end()) throw std::logic_error("kernel argument '" + name + "' is not declared");
  return it->second;
}

KernelRegistry& KernelRegistry::instance() {
  static KernelRegistry r;
  return r;
}

bool KernelRegistry::add(KernelInfo k) {
  const std::string name = k.name;
  return m_kernels.emplace(name, std::move(k)).second;
}

const KernelInfo* KernelRegistry::find(const std::string& name) const {
  auto it = m_kernels.find(name);
  return it == m_kernels.end() ? nullptr : &it->second;
}

namespace {
std::vector<KernelCheck>& checks() {
  static std::vector<KernelCheck> c;
  return c;
}
// Host programs run on threads of their own in the hardware runner (hw/): one lock.
std::mutex& checks_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

void check(bool ok, std::string what, std::string detail) {
  const std::lock_guard<std::mutex> lock(checks_mutex());
  checks().push_back({std::move(what), ok, std::move(detail)});
}
const std::vector<KernelCheck>& kernel_checks() { return checks(); }

}  // namespace symsim
