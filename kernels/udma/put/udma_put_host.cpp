// Host driver of udma_put: fill the source with a per-PE pattern, launch, and check that the
// right neighbour's pattern arrived byte for byte.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_put(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint64_t rounds,
                     uint64_t quiet_every, uint32_t pipe_s);

namespace {

// The symmetric heap one PE asks for and writes (declared below for validation and the memory estimate).
symsim::KernelHeap heap_bytes(const symsim::KernelArgs& a, int) {
  return {2 * a.u64("bytes") + (4u << 20), 2 * a.u64("bytes")};
}

void udma_put_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const auto blocks = static_cast<uint32_t>(a.blocks());
  aclrtStream stream = udma_example::setup(pe, heap_bytes(a, 0).reserved_bytes, blocks);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  udma_example::fill_pattern(src, bytes, pe, 0);
  aclrtMemset(dst, bytes, 0, bytes);
  aclshmem_barrier_all();

  launch_udma_put(blocks, stream, dst, src, bytes, a.u64("rounds"), a.u64("quiet_every"),
                  static_cast<uint32_t>(a.u64("pipe_s")));
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_put_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  const std::string diff = udma_example::compare_pattern(dst, bytes, from, 0);
  symsim::check(diff.empty(), fmt::format("pe {}: {} bytes from pe {} arrived and match", pe, bytes, from), diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_put, {"udma_put", "ascend",
                                  "put_nbi to the right neighbour, `rounds` times, then quiet; block b drives QP b",
                                  {{"bytes", "bytes per round (split over blocks)", 1, 256.0 * (1 << 20), 4096},
                                   {"rounds", "puts per block", 1, 1e8, 1},
                                   {"quiet_every", "drain completions every N rounds (0: only at the end)", 0, 1e8, 1},
                                   {"pipe_s", "1: build WQEs with scalar stores (PIPE_S), 0: UB + MTE3", 0, 1, 0}},
                                  32, udma_put_host});
SYMSIM_REGISTER_KERNEL_HEAP(udma_put, heap_bytes);
