// Host driver of hazard_flag_before_data: what the receiver copied right after seeing the
// flag must be its left neighbour's data. The data buffer is the first heap allocation
// (heap offset 0), which a scenario's reorder fault selects with heap_range.
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_flag_before_data(bool fixed, void* stream, uint8_t* data, uint8_t* flag, uint8_t* one, uint8_t* src,
                             uint8_t* seen, uint32_t bytes);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = hazard_host::setup(pe, 3 * uint64_t{bytes} + (2u << 20));
  auto* data = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* flag = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  auto* one = static_cast<uint8_t*>(aclshmem_malloc(sizeof(uint64_t)));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* seen = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  const uint64_t v = 1;
  aclrtMemcpy(one, sizeof(v), &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE);
  hazard_host::fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_flag_before_data(a.u64("fixed") != 0, stream, data, flag, one, src, seen, bytes);
  hazard_host::sync(pe, stream, "flag_before_data kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, seen, bytes, from, 0,
                             fmt::format("the data read after pe {}'s flag was complete", from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_flag_before_data,
                       {"hazard_flag_before_data", "ascend",
                        "flag_before_data: data put then flag put with nothing ordering them (fixed: quiet between)",
                        {{"bytes", "data bytes (a multiple of 32)", 32, 1 << 20, 65536},
                         {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
