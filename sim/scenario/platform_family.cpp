#include "scenario/platform_family.h"

#include "models/nvidia/nvidia_params.h"
#include "models/platform/ascend_params.h"
#include "runner/nvidia_runner.h"
#include "runner/runner.h"

namespace symsim {

namespace {
ParamTable ascend_table() {
  static AscendParams scratch;
  return scratch.table();
}
ParamTable nvidia_table() {
  static nv::NvidiaParams scratch;
  return scratch.table();
}
}  // namespace

const std::vector<PlatformFamily>& platform_families() {
  static const std::vector<PlatformFamily> f = {
      {"ascend", ascend_table, "aiv.cores", {"udma.sq_depth_bb", "udma.cq_depth"}, run_ascend_scenario},
      {"nvidia", nvidia_table, "sm.count", {"nic.sq_depth", "nic.cq_depth"}, run_nvidia_scenario},
  };
  return f;
}

const PlatformFamily* find_family(const std::string& name) {
  for (const PlatformFamily& f : platform_families())
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace symsim
