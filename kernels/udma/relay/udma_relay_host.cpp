// Host driver of udma_relay, built with ACLSHMEM_RELAY_SUPPORT like its kernel, so
// aclshmemx_init_attr builds the relay QP table ([pe * n + relay], one QP each). Checks that
// the left neighbour's pattern arrived (and, with `get`, that the right neighbour's was read).
#include <fmt/format.h>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_relay(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* got, uint64_t bytes,
                       uint32_t rounds, uint32_t relay_offset, uint32_t get);

namespace {

// A relay distinct from the caller and the target needs a third PE.
std::optional<symsim::KernelArgProblem> check_args(const symsim::KernelArgs&, int pes) {
  if (pes < 3) return symsim::KernelArgProblem{"pes", fmt::format("udma_relay needs at least 3 PEs (got {})", pes)};
  return std::nullopt;
}

void udma_relay_host(int pe, const symsim::KernelArgs& a) {
  const uint64_t bytes = a.u64("bytes");
  const auto relay_offset = static_cast<uint32_t>(a.u64("relay_offset"));
  const auto get = static_cast<uint32_t>(a.u64("get"));
  const int n = aclshmem_n_pes();
  // relay_offset 0 or 1 (or pes) names the caller or the target as relay: the device call
  // rejects it, which is what those values are for.
  if (const auto problem = check_args(a, n)) throw std::invalid_argument(problem->what);
  aclrtStream stream = nullptr;
  int status = aclInit(nullptr);
  status |= aclrtSetDevice(pe);
  status |= aclrtCreateStream(&stream);
  aclshmemx_init_attr_t attr;
  attr.my_pe = pe;
  attr.n_pes = n;
  attr.local_mem_size = 3 * bytes + (4u << 20);
  attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
  status |= aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr);  // the relay build's init
  if (status != 0) throw std::runtime_error(fmt::format("PE {}: SHMEM set-up failed ({})", pe, status));
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* got = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  udma_example::fill_pattern(src, bytes, pe, 0);
  aclshmem_barrier_all();

  launch_udma_relay(1, stream, dst, src, got, bytes, static_cast<uint32_t>(a.u64("rounds")), relay_offset, get);
  const aclError done = aclrtSynchronizeStream(stream);
  symsim::check(done == ACL_SUCCESS, fmt::format("pe {}: udma_relay_kernel completed", pe),
                done == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", done));
  aclshmem_barrier_all();

  const int from = (pe + n - 1) % n;
  const std::string diff = udma_example::compare_pattern(dst, bytes, from, 0);
  symsim::check(diff.empty(),
                fmt::format("pe {}: {} bytes relayed from pe {} through pe {} match", pe, bytes, from,
                            (from + relay_offset) % n),
                diff);
  if (get) {
    const std::string read = udma_example::compare_pattern(got, bytes, (pe + 1) % n, 0);
    symsim::check(read.empty(), fmt::format("pe {}: {} bytes read from pe {} through a relay match", pe, bytes,
                                            (pe + 1) % n),
                  read);
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_relay,
                       {"udma_relay", "ascend",
                        "relay build: relay_put_nbi (and relay_get_nbi) to the right neighbour through the PE "
                        "`relay_offset` places to the right; the fabric forwards, the relay's kernel is idle",
                        {{"bytes", "bytes per put", 1, 64.0 * (1 << 20), 65536},
                         {"rounds", "rounds", 1, 1e6, 2},
                         {"relay_offset", "relay = (pe + relay_offset) % pes; 0 or 1 break the relay preconditions", 0, 4095, 2},
                         {"get", "1: also relay_get_nbi the right neighbour's buffer", 0, 1, 1}},
                        1, udma_relay_host});
SYMSIM_REGISTER_KERNEL_ARGS_CHECK(udma_relay, check_args);
