// Kernels register here by name with their arguments; the scenario runner looks them up,
// validates `kernel.args` against the declared ranges and runs the host driver once per PE.
// Host drivers report what they verified through `check`.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace symsim {

struct KernelArg {
  std::string name;
  std::string doc;
  double min;
  double max;
  double default_value;
  bool integer = true;
};

class KernelArgs {
 public:
  KernelArgs(std::map<std::string, double> values, int blocks) : m_values(std::move(values)), m_blocks(blocks) {}
  double number(const std::string& name) const;
  uint64_t u64(const std::string& name) const { return static_cast<uint64_t>(number(name)); }
  int blocks() const { return m_blocks; }

 private:
  std::map<std::string, double> m_values;
  int m_blocks;
};

struct KernelInfo {
  std::string name;
  std::string platform_family;  // "ascend"
  std::string doc;
  std::vector<KernelArg> args;
  int max_blocks = 48;
  std::function<void(int pe, const KernelArgs&)> host_main;
};

class KernelRegistry {
 public:
  static KernelRegistry& instance();
  bool add(KernelInfo k);
  const KernelInfo* find(const std::string& name) const;
  const std::map<std::string, KernelInfo>& all() const { return m_kernels; }

 private:
  std::map<std::string, KernelInfo> m_kernels;
};

// A verification a host driver made (bytes arrived and match, a signal value, ...).
struct KernelCheck {
  std::string what;
  bool ok;
  std::string detail;
};
void check(bool ok, std::string what, std::string detail = "");
// A check whose verdict comes later, from a thread of the host program's own: its place in the
// list is taken now, so the list keeps the order the host programs asked in whenever the
// verdict comes. Every index must be settled once.
size_t check_later(std::string what);
void settle_check(size_t index, bool ok, std::string detail = "");
// Waits for the verdicts not yet settled.
const std::vector<KernelCheck>& kernel_checks();

}  // namespace symsim

#define SYMSIM_REGISTER_KERNEL(id, ...) \
  static const bool symsim_registered_##id = ::symsim::KernelRegistry::instance().add(__VA_ARGS__)
