#include "kernels/hazards/common/hazard_host.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "kernels/common/test_pattern.h"
#include "symsim/udma_tables.h"

namespace hazard_host {

uint8_t* udma_tables() { return reinterpret_cast<uint8_t*>(symsim::shim::udma_tables()); }

bool sync(int pe, aclrtStream stream, const std::string& kernel) {
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: {} completed", pe, kernel),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  return status == ACL_SUCCESS;
}

void fill(uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  kernel_host::fill_pattern(pattern_byte, device, bytes, pe, round);
}

std::string compare(const uint8_t* device, uint64_t bytes, int pe, uint64_t round) {
  return kernel_host::compare_pattern(pattern_byte, device, bytes, pe, round);
}

void check_pattern(int me, const uint8_t* device, uint64_t bytes, int pe, uint64_t round, const std::string& what) {
  const std::string diff = compare(device, bytes, pe, round);
  symsim::check(diff.empty(), fmt::format("pe {}: {}", me, what), diff);
}

void run_ring_kernel(int pe, const symsim::KernelArgs& a, RingLaunch launch, const char* name, uint32_t cores) {
  const auto wqes = static_cast<uint32_t>(a.u64("wqes"));
  const uint64_t bytes = uint64_t{cores} * wqes * 512;
  aclrtStream stream = setup(pe, 2 * bytes + (1u << 20), cores);
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch(a.u64("fixed") != 0, stream, udma_tables(), dst, src, wqes);
  sync(pe, stream, fmt::format("{} kernel", name));
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  check_pattern(pe, dst, bytes, from, 0, fmt::format("all {} blocks from pe {} arrived", cores * wqes, from));
  teardown(stream);
}

void run_copy_kernel(int pe, const symsim::KernelArgs& a, CopyLaunch launch, const char* name) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = setup(pe, 5 * uint64_t{bytes} + (1u << 20));
  auto* in = static_cast<uint8_t*>(aclshmem_malloc(4 * uint64_t{bytes}));
  auto* out = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  fill(in, 4 * uint64_t{bytes}, pe, 0);
  launch(a.u64("fixed") != 0, stream, in, out, bytes);
  sync(pe, stream, name);
  check_pattern(pe, out, bytes, pe, 0, fmt::format("{} copied {} bytes intact", name, bytes));
  teardown(stream);
}

void run_neighbour_put(int pe, const symsim::KernelArgs& a, PutLaunch launch, const char* name) {
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  aclrtStream stream = setup(pe, 2 * uint64_t{bytes} + (1u << 20));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  fill(src, bytes, pe, 0);
  aclshmem_barrier_all();
  launch(a.u64("fixed") != 0, stream, udma_tables(), dst, src, bytes);
  sync(pe, stream, fmt::format("{} kernel", name));
  aclshmem_barrier_all();
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  check_pattern(pe, dst, bytes, from, 0, fmt::format("{} bytes from pe {} arrived", bytes, from));
  teardown(stream);
}

}  // namespace hazard_host
