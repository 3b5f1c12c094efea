// Host driver of udma_put_signal: per round a distinct pattern; checks the final signal value
// and that what the receiver copied right after seeing each signal is that round's data.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_put_signal(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* seen, uint8_t* sig,
                            uint64_t bytes, uint64_t rounds);

namespace {

// The symmetric heap one PE asks for and writes (declared below for validation and the memory estimate).
symsim::KernelHeap heap_bytes(const symsim::KernelArgs& a, int) {
  const uint64_t data = 3 * a.u64("bytes") * a.u64("rounds");
  return {data + (4u << 20), data};
}

void udma_put_signal_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const uint64_t rounds = a.u64("rounds");
  aclrtStream stream = udma_example::setup(pe, heap_bytes(a, 0).reserved_bytes, 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* seen = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* sig = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  for (uint64_t r = 0; r < rounds; ++r) udma_example::fill_pattern(src + r * bytes, bytes, pe, r);
  aclshmem_barrier_all();

  launch_udma_put_signal(1, stream, dst, src, seen, sig, bytes, rounds);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_put_signal_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  uint64_t signal = 0;
  aclrtMemcpy(&signal, sizeof(signal), sig, sizeof(signal), ACL_MEMCPY_DEVICE_TO_HOST);
  symsim::check(signal == rounds, fmt::format("pe {}: signal reached {}", pe, rounds), fmt::format("signal is {}", signal));
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  std::string diff;
  for (uint64_t r = 0; r < rounds && diff.empty(); ++r) {
    diff = udma_example::compare_pattern(seen + r * bytes, bytes, from, r);
    if (!diff.empty()) diff = fmt::format("round {}: {}", r, diff);
  }
  symsim::check(diff.empty(), fmt::format("pe {}: data was complete when each signal was seen ({} rounds)", pe, rounds),
                diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_put_signal, {"udma_put_signal", "ascend",
                                         "put_signal_nbi to the right neighbour; the receiver waits on the signal, "
                                         "then checks every byte",
                                         {{"bytes", "bytes per round", 1, 64.0 * (1 << 20), 4096},
                                          {"rounds", "rounds (a distinct pattern each)", 1, 1e6, 1}},
                                         1, udma_put_signal_host});
SYMSIM_REGISTER_KERNEL_HEAP(udma_put_signal, heap_bytes);
