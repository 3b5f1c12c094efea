// Host driver of udma_p2p_sync: fills each PE's slice, launches, and checks what PE 0's
// point-to-point calls returned (udma_p2p_sync_kernel.cpp lists them) and every slice's bytes.
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_p2p_sync(void* stream, uint8_t* flags, uint8_t* data, uint8_t* src, uint8_t* work, uint8_t* results);

namespace {

constexpr uint32_t kSlice = 512;

void udma_p2p_sync_host(int pe, const symsim::KernelArgs&) {
  const int n = aclshmem_n_pes();
  aclrtStream stream = udma_example::setup(pe, 4u << 20, 1);
  auto* flags = static_cast<uint8_t*>(aclshmem_calloc(n, sizeof(uint64_t)));
  auto* data = static_cast<uint8_t*>(aclshmem_calloc(n, kSlice));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(kSlice));
  auto* work = static_cast<uint8_t*>(aclshmem_calloc(1, 4096));
  auto* results = static_cast<uint8_t*>(aclshmem_calloc(16, sizeof(uint64_t)));
  std::vector<uint8_t> slice(kSlice);
  for (uint32_t i = 0; i < kSlice; ++i) slice[i] = static_cast<uint8_t>(pe * 37 + i);
  aclrtMemcpy(src, kSlice, slice.data(), kSlice, ACL_MEMCPY_HOST_TO_DEVICE);
  aclshmem_barrier_all();

  launch_udma_p2p_sync(stream, flags, data, src, work, results);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_p2p_sync_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  {
    uint64_t word = 0;
    aclrtMemcpy(&word, 8, results + 12 * 8, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    const uint64_t want = pe == 0 ? 6 : pe == 1 ? 7 : pe == 2 ? 10 : 3;
    symsim::check(word == want, fmt::format("pe {}: aclshmemx_signal_op left its word at {}", pe, want),
                  fmt::format("got {}", word));
  }
  if (pe == 0) {
    std::vector<uint64_t> r(12);
    aclrtMemcpy(r.data(), r.size() * 8, results, r.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST);
    const std::vector<uint64_t> want = {1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 2, SIZE_MAX};
    static const char* const what[] = {
        "wait_until_any returned the first PE to signal",   "its slice was complete when the wait returned",
        "test saw that the last PE had not signalled yet",  "wait_until_some found the one PE that had signalled",
        "wait_until_some returned its index",               "wait_until_all returned",
        "test_all_vector matched every signal",             "test_any_vector returned the first match",
        "test_some found the one word still below 2",       "every slice was complete after wait_until_all",
        "signal_wait_until returned the value that held",   "wait_until_any_vector with every element excluded"};
    for (size_t i = 0; i < want.size(); ++i)
      symsim::check(r[i] == want[i], fmt::format("pe 0: {}", what[i]), fmt::format("got {}, want {}", r[i], want[i]));
    std::vector<uint8_t> got(uint64_t{kSlice} * n);
    aclrtMemcpy(got.data(), got.size(), data, got.size(), ACL_MEMCPY_DEVICE_TO_HOST);
    for (int p = 1; p < n; ++p) {
      bool ok = true;
      for (uint32_t i = 0; i < kSlice; ++i) ok = ok && got[p * kSlice + i] == static_cast<uint8_t>(p * 37 + i);
      symsim::check(ok, fmt::format("pe 0: the slice of pe {} arrived", p));
    }
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_p2p_sync,
                       {"udma_p2p_sync", "ascend",
                        "PEs signal PE 0 at staggered times; PE 0 waits and tests with the aclshmem_<T>_wait_until / "
                        "test families (ACLSHMEM_CMP_*); all meet in the device aclshmem_barrier_all",
                        {},
                        1, udma_p2p_sync_host});
