// Host driver of udma_generic_amo: PE 0 checks what its fetching atomics returned, PE 1 the
// final value of each word.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_generic_amo(void* stream, uint8_t* words, uint8_t* results);

namespace {

void udma_generic_amo_host(int pe, const symsim::KernelArgs&) {
  aclrtStream stream = udma_example::setup(pe, 4u << 20, 1);
  auto* words = static_cast<uint8_t*>(aclshmem_calloc(1, 64));
  auto* results = static_cast<uint8_t*>(aclshmem_calloc(16, sizeof(uint64_t)));
  aclshmem_barrier_all();
  launch_udma_generic_amo(stream, words, results);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_generic_amo_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  if (pe == 0) {
    std::vector<uint64_t> r(11);
    aclrtMemcpy(r.data(), r.size() * 8, results, r.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST);
    const std::vector<uint64_t> want = {6, 0xF00E, 0xF001, 0x01, 0x11, 0, 42, 42, 9, 12, 3};
    static const char* const calls[] = {
        "aclshmem_int32_atomic_fetch_add after add and inc", "aclshmem_uint64_atomic_fetch_xor",
        "aclshmem_uint64_atomic_fetch_and", "aclshmem_uint64_atomic_fetch_or", "aclshmem_uint64_atomic_fetch",
        "aclshmem_int64_atomic_compare_swap (matching)", "aclshmem_int64_atomic_compare_swap (not matching)",
        "aclshmem_int64_atomic_swap", "aclshmem_int64_atomic_fetch_inc", "aclshmem_float_atomic_swap (x4)",
        "aclshmem_uint32_atomic_fetch_inc after three inc"};
    for (size_t i = 0; i < want.size(); ++i)
      symsim::check(r[i] == want[i], fmt::format("pe 0: {} returned {:#x}", calls[i], want[i]),
                    fmt::format("got {:#x}", r[i]));
  } else {
    uint8_t w[64];
    aclrtMemcpy(w, sizeof(w), words, sizeof(w), ACL_MEMCPY_DEVICE_TO_HOST);
    int32_t i32;
    uint64_t u64;
    int64_t i64;
    float f32;
    uint32_t u32;
    std::memcpy(&i32, w, 4);
    std::memcpy(&u64, w + 8, 8);
    std::memcpy(&i64, w + 16, 8);
    std::memcpy(&f32, w + 24, 4);
    std::memcpy(&u32, w + 32, 4);
    symsim::check(i32 == 16, "pe 1: the int32 word ends at 16", fmt::format("{}", i32));
    symsim::check(u64 == 0x11, "pe 1: the uint64 word ends at 0x11", fmt::format("{:#x}", u64));
    symsim::check(i64 == 10, "pe 1: the int64 word ends at 10", fmt::format("{}", i64));
    symsim::check(f32 == 4.5f, "pe 1: the float word ends at 4.5", fmt::format("{}", f32));
    symsim::check(u32 == 4, "pe 1: the uint32 word ends at 4", fmt::format("{}", u32));
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_generic_amo,
                       {"udma_generic_amo", "ascend",
                        "PE 0 applies the generic aclshmem_<T>_atomic_* calls to PE 1's words over UDMA; returned and "
                        "final values are checked",
                        {},
                        1, udma_generic_amo_host});
