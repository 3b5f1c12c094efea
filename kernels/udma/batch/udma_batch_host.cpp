// Host driver of udma_batch: a pattern per PE; after the batches, a put's destination holds
// the left neighbour's pattern, a get's the right neighbour's.
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_batch(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint32_t ops,
                       uint32_t rounds, uint32_t get, uint32_t qp, uint32_t violate, uint32_t quiet_each);

namespace {

// Each of the `ops` operations moves at least one byte.
std::optional<symsim::KernelArgProblem> check_args(const symsim::KernelArgs& a, int) {
  if (a.u64("bytes") < a.u64("ops"))
    return symsim::KernelArgProblem{"bytes", fmt::format("bytes ({}) must be at least ops ({})", a.u64("bytes"), a.u64("ops"))};
  return std::nullopt;
}

void udma_batch_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const auto ops = static_cast<uint32_t>(a.u64("ops"));
  const auto get = static_cast<uint32_t>(a.u64("get"));
  const auto qp = static_cast<uint32_t>(a.u64("qp"));
  if (const auto problem = check_args(a, 0)) throw std::invalid_argument("kernel.args." + problem->what);
  aclrtStream stream = udma_example::setup(pe, 2 * bytes + (4u << 20), qp + 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  udma_example::fill_pattern(src, bytes, pe, 0);
  aclrtMemset(dst, bytes, 0, bytes);
  aclshmem_barrier_all();

  launch_udma_batch(1, stream, dst, src, bytes, ops, static_cast<uint32_t>(a.u64("rounds")), get, qp,
                    static_cast<uint32_t>(a.u64("violate")), static_cast<uint32_t>(a.u64("quiet_each")));
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_batch_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  const int n = aclshmem_n_pes();
  const int from = get ? (pe + 1) % n : (pe + n - 1) % n;
  const std::string diff = udma_example::compare_pattern(dst, bytes, from, 0);
  symsim::check(diff.empty(), fmt::format("pe {}: {} bytes from pe {} in {} batched WQEs match", pe, bytes, from, ops),
                diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_batch,
                       {"udma_batch", "ascend",
                        "defer/submit batches: `ops` WQEs per batch (one CQE, one doorbell per ring chunk) to the right "
                        "neighbour, then quiet",
                        {{"bytes", "bytes per batch (split over its WQEs)", 1, 256.0 * (1 << 20), 65536},
                         {"ops", "WQEs per batch, the submit included", 2, 2048, 16},
                         {"rounds", "batches", 1, 1e6, 2},
                         {"get", "1: batches of get_nbi (READ) instead of put_nbi", 0, 1, 0},
                         {"qp", "QP index (aclshmemx_set_qp_num is set to qp + 1)", 0, 31, 0},
                         {"violate", "break the batch contract on the second call: 1 PE, 2 sync_id, 3 UB base, "
                                     "4 operation (0: keep it)", 0, 4, 0},
                         {"quiet_each", "1: quiet after every batch, 0: only after the last", 0, 1, 1}},
                        1, udma_batch_host});
SYMSIM_REGISTER_KERNEL_ARGS_CHECK(udma_batch, check_args);
