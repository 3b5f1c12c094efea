// Host driver of hazard_bad_remote_addr. Buggy: the put's destination comes from aclrtMalloc
// (not symmetric); fixed: from aclshmem_malloc. The right neighbour checks what arrived.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_bad_remote_addr(void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 2 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  void* plain = nullptr;
  aclrtMalloc(&plain, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  const bool fixed = a.u64("fixed") != 0;
  uint8_t* target = fixed ? dst : static_cast<uint8_t*>(plain);
  launch_bad_remote_addr(stream, target, src, bytes);
  hazard_host::sync(pe, stream, "bad_remote_addr kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_bad_remote_addr,
                       {"hazard_bad_remote_addr", "ascend",
                        "bad_remote_addr: put to a destination from aclrtMalloc, not the symmetric heap (fixed: "
                        "aclshmem_malloc)",
                        {{"bytes", "bytes per PE", 1, 1 << 20, 4096}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
