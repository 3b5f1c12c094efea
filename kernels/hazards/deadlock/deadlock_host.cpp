// Host driver of hazard_deadlock (two PEs): each PE's flag must end up set.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_deadlock(bool fixed, void* stream, uint8_t* flag, uint8_t* one);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  aclrtStream stream = hazard_host::setup(pe, 1u << 20);
  auto* flag = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  auto* one = static_cast<uint8_t*>(aclshmem_malloc(sizeof(uint64_t)));
  const uint64_t v = 1;
  aclrtMemcpy(one, sizeof(v), &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE);
  aclshmem_barrier_all();
  launch_deadlock(a.u64("fixed") != 0, stream, flag, one);
  hazard_host::sync(pe, stream, "deadlock kernel");
  aclshmem_barrier_all();
  uint64_t got = 0;
  aclrtMemcpy(&got, sizeof(got), flag, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST);
  symsim::check(got == 1, fmt::format("pe {}: ready flag set", pe), fmt::format("flag holds {}", got));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_deadlock,
                       {"hazard_deadlock", "ascend",
                        "deadlock: each PE waits for its ready flag before setting its neighbour's (fixed: set first)",
                        {{"fixed", "1: the corrected kernel", 0, 1, 0}}, 1, host});
