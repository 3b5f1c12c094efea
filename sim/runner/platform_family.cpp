#include "sim/runner/platform_family.h"

#include "sim/runner/families.h"

namespace symsim {

const std::vector<const PlatformFamily*>& platform_families() {
  static const std::vector<const PlatformFamily*> f = {&ascend_family(), &nvidia_family()};
  return f;
}

const PlatformFamily* find_family(const std::string& name) {
  for (const PlatformFamily* f : platform_families())
    if (name == f->name()) return f;
  return nullptr;
}

std::string family_names() {
  std::string out;
  for (const PlatformFamily* f : platform_families()) out += (out.empty() ? "" : ", ") + std::string(f->name());
  return out;
}

}  // namespace symsim
