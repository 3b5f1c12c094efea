#include "kernels/registry/kernel_registry.h"

#include <condition_variable>
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
size_t& unsettled() {  // check_later's places without a verdict yet
  static size_t n = 0;
  return n;
}
std::condition_variable& settled() {  // never destroyed: a helper thread may signal it as the process ends
  static auto* c = new std::condition_variable;
  return *c;
}
}  // namespace

void check(bool ok, std::string what, std::string detail) {
  const std::lock_guard<std::mutex> lock(checks_mutex());
  checks().push_back({std::move(what), ok, std::move(detail)});
}

size_t check_later(std::string what) {
  const std::lock_guard<std::mutex> lock(checks_mutex());
  ++unsettled();
  checks().push_back({std::move(what), false, "no verdict"});
  return checks().size() - 1;
}

void settle_check(size_t index, bool ok, std::string detail) {
  const std::lock_guard<std::mutex> lock(checks_mutex());
  KernelCheck& c = checks().at(index);
  c.ok = ok;
  c.detail = std::move(detail);
  --unsettled();
  // Under the lock: once the waiter sees the last verdict, this thread touches the condition
  // variable no more, so the process may end (and destroy it) at once. Notified after the lock,
  // it was a race at exit (TSan, docs/performance.md, session 35).
  settled().notify_all();
}

const std::vector<KernelCheck>& kernel_checks() {
  std::unique_lock<std::mutex> lock(checks_mutex());
  settled().wait(lock, [] { return unsettled() == 0; });
  return checks();
}

}  // namespace symsim
