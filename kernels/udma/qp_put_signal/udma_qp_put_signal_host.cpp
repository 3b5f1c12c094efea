// Host driver of udma_qp_put_signal: one QP per block (aclshmemx_set_qp_num), a distinct
// pattern per round; checks every QP's signal and that each slice seen right after its
// signal is the sender's data.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_qp_put_signal(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* seen,
                               uint8_t* sig, uint64_t bytes, uint64_t rounds);

namespace {

void udma_qp_put_signal_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const uint64_t rounds = a.u64("rounds");
  const auto qps = static_cast<uint32_t>(a.blocks());
  aclrtStream stream = udma_example::setup(pe, 3 * bytes * rounds + (4u << 20), qps);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* seen = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* sig = static_cast<uint8_t*>(aclshmem_calloc(qps, sizeof(uint64_t)));
  for (uint64_t r = 0; r < rounds; ++r) udma_example::fill_pattern(src + r * bytes, bytes, pe, r);
  aclshmem_barrier_all();

  launch_udma_qp_put_signal(qps, stream, dst, src, seen, sig, bytes, rounds);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_qp_put_signal_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  std::vector<uint64_t> signals(qps);
  aclrtMemcpy(signals.data(), qps * sizeof(uint64_t), sig, qps * sizeof(uint64_t), ACL_MEMCPY_DEVICE_TO_HOST);
  std::string wrong;
  for (uint32_t q = 0; q < qps; ++q)
    if (signals[q] != rounds) wrong += fmt::format("QP {} signal is {}; ", q, signals[q]);
  symsim::check(wrong.empty(), fmt::format("pe {}: the signal of each of {} QPs reached {}", pe, qps, rounds), wrong);
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  std::string diff;
  for (uint64_t r = 0; r < rounds && diff.empty(); ++r) {
    diff = udma_example::compare_pattern(seen + r * bytes, bytes, from, r);
    if (!diff.empty()) diff = fmt::format("round {}: {}", r, diff);
  }
  symsim::check(diff.empty(),
                fmt::format("pe {}: every slice was complete when its QP's signal was seen ({} rounds)", pe, rounds),
                diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_qp_put_signal,
                       {"udma_qp_put_signal", "ascend",
                        "multi-QP put with signal to the right neighbour: block i drives QP i with its own slice and "
                        "signal word; the receiver checks each slice when its signal arrives",
                        {{"bytes", "bytes per round (split over blocks)", 1, 64.0 * (1 << 20), 65536},
                         {"rounds", "rounds (a distinct pattern each)", 1, 1e6, 2}},
                        32, udma_qp_put_signal_host});
