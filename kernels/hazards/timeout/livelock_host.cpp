// Host driver of hazard_timeout (two PEs): after `rounds` ping-pongs both flags hold the last
// round's value.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_livelock(bool fixed, void* stream, uint8_t* flag, uint8_t* value, uint32_t rounds);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto rounds = static_cast<uint32_t>(a.u64("rounds"));
  aclrtStream stream = hazard_host::setup(pe, 1u << 20);
  auto* flag = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  auto* value = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  aclshmem_barrier_all();
  launch_livelock(a.u64("fixed") != 0, stream, flag, value, rounds);
  hazard_host::sync(pe, stream, "ping-pong kernel");
  aclshmem_barrier_all();
  uint64_t got = 0;
  aclrtMemcpy(&got, sizeof(got), flag, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST);
  const uint64_t last = (rounds - 1) / 2 * 2 + 1;
  symsim::check(got == last, fmt::format("pe {}: flag holds the last round's value {}", pe, last),
                fmt::format("flag holds {}", got));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_timeout,
                       {"hazard_timeout", "ascend",
                        "timeout: a ping-pong loop stepping by 2 that tests r != rounds (fixed: r < rounds)",
                        {{"rounds", "rounds (odd: the buggy loop never ends)", 1, 1e6, 7},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
