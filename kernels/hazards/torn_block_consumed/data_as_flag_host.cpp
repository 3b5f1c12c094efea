// Host driver of hazard_torn_block_consumed: the send buffer is `blocks` Data-as-Flag blocks
// (480 B of pattern + 32 B of 1.0f); the receiver's output must be the senders' payloads.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "kernels/hazards/common/hazard_host.h"

void launch_data_as_flag(bool fixed, void* stream, uint8_t* window, uint8_t* sendbuf, uint8_t* out, uint8_t* sig,
                         uint32_t blocks);

namespace {

void host(int pe, const symsim::KernelArgs& a) {
  const auto blocks = static_cast<uint32_t>(a.u64("blocks"));
  const uint64_t bytes = uint64_t{blocks} * 512;
  aclrtStream stream = hazard_host::setup(pe, 3 * bytes + (1u << 20));
  auto* window = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* sendbuf = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* out = static_cast<uint8_t*>(aclshmem_calloc(1, uint64_t{blocks} * 480));
  auto* sig = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  std::vector<uint8_t> host_buf(bytes);
  for (uint32_t k = 0; k < blocks; ++k) {
    for (uint32_t i = 0; i < 480; ++i) host_buf[k * 512 + i] = hazard_host::pattern_byte(pe, 0, uint64_t{k} * 480 + i);
    const float one = 1.0f;
    for (uint32_t f = 0; f < 8; ++f) std::memcpy(&host_buf[k * 512 + 480 + f * 4], &one, 4);
  }
  aclrtMemcpy(sendbuf, bytes, host_buf.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclshmem_barrier_all();
  launch_data_as_flag(a.u64("fixed") != 0, stream, window, sendbuf, out, sig, blocks);
  hazard_host::sync(pe, stream, "data_as_flag kernel");
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  hazard_host::check_pattern(pe, out, uint64_t{blocks} * 480, from, 0,
                             fmt::format("the {} payloads consumed from pe {} are intact", blocks, from));
  hazard_host::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_torn_block_consumed,
                       {"hazard_torn_block_consumed", "ascend",
                        "torn_block_consumed: a Data-as-Flag receiver (480 B payload + 32 B flag per 512 B block) "
                        "(fixed: put_signal)",
                        {{"blocks", "512 B blocks per PE", 1, 4096, 16}, {"fixed", "1: the corrected kernel", 0, 1, 0}},
                        1, host});
