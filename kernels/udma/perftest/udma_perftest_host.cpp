// Host driver of udma_perftest: turns PE 0's cycle counts into the upstream perftest's CSV
// columns (DataSize/B, Npus, Blocks, UBsize/KB, Bandwidth/GB/s, CoreMaxTime/us,
// SingleCoreTime/us; one block, so both times are the same: the time per operation) plus the
// batch size, checks every figure is positive and no bandwidth exceeds the port's payload
// rate, and appends the rows to the file SYMSIM_PERFTEST_CSV names (tools/perftest.sh).
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_perftest(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* cycles,
                          uint32_t min_exp, uint32_t max_exp, uint32_t loop, uint32_t batch, uint32_t get);

namespace {

std::optional<symsim::KernelArgProblem> check_args(const symsim::KernelArgs& a, int) {
  if (a.u64("min_exp") > a.u64("max_exp"))
    return symsim::KernelArgProblem{"min_exp", fmt::format("min_exp ({}) must not exceed max_exp ({})", a.u64("min_exp"), a.u64("max_exp"))};
  return std::nullopt;
}

constexpr double kCyclesPerUs = 50.0;  // AscendC::GetSystemCycle: 50 MHz

void udma_perftest_host(int pe, const symsim::KernelArgs& a) {
  const auto min_exp = static_cast<uint32_t>(a.u64("min_exp"));
  const auto max_exp = static_cast<uint32_t>(a.u64("max_exp"));
  const auto loop = static_cast<uint32_t>(a.u64("loop"));
  const auto batch = static_cast<uint32_t>(a.u64("batch") == 0 ? loop : a.u64("batch"));
  const auto get = static_cast<uint32_t>(a.u64("get"));
  if (const auto problem = check_args(a, 0)) throw std::invalid_argument("kernel.args." + problem->what);
  const uint64_t largest = uint64_t{1} << max_exp;
  aclrtStream stream = udma_example::setup(pe, 2 * largest + (4u << 20), 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(largest));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(largest));
  const uint32_t sizes = max_exp - min_exp + 1;
  uint8_t* cycles = nullptr;
  aclrtMalloc(reinterpret_cast<void**>(&cycles), sizes * 8, ACL_MEM_MALLOC_HUGE_FIRST);
  aclshmem_barrier_all();

  launch_udma_perftest(1, stream, dst, src, cycles, min_exp, max_exp, loop, batch, get);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_perftest_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  if (pe == 0) {
    std::vector<uint64_t> c(sizes);
    aclrtMemcpy(c.data(), sizes * 8, cycles, sizes * 8, ACL_MEMCPY_DEVICE_TO_HOST);
    const char* csv_path = std::getenv("SYMSIM_PERFTEST_CSV");
    std::ofstream csv;
    if (csv_path) {
      const bool fresh = !std::ifstream(csv_path).good();
      csv.open(csv_path, std::ios::app);
      if (fresh)
        csv << "DataSize/B,Npus,Blocks,UBsize/KB,Bandwidth/GB/s,CoreMaxTime/us,SingleCoreTime/us,Batch,Op\n";
    }
    for (uint32_t i = 0; i < sizes; ++i) {
      const uint64_t bytes = uint64_t{1} << (min_exp + i);
      const double per_op_us = static_cast<double>(c[i]) / kCyclesPerUs / loop;
      const double gbytes_per_s = per_op_us > 0 ? static_cast<double>(bytes) / (per_op_us * 1000.0) : 0;
      // 196 GB/s raw port at 70% payload efficiency (ascend910c): nothing may go faster.
      const bool sane = per_op_us > 0 && gbytes_per_s <= 196.0 * 0.70 * 1.001;
      symsim::check(sane, fmt::format("pe 0: {} B {}s, batch {}: {:.4f} us per operation, {:.4f} GB/s", bytes,
                                      get ? "get" : "put", batch, per_op_us, gbytes_per_s),
                    sane ? "" : "outside (0, port payload rate]");
      if (csv.is_open())
        csv << fmt::format("{},{},1,{},{:.4f},{:.4f},{:.4f},{},{}\n", bytes, aclshmem_n_pes(),
                           ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE / 1024.0, gbytes_per_s, per_op_us, per_op_us, batch,
                           get ? "get" : "put");
    }
  }
  aclshmem_barrier_all();
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_perftest,
                       {"udma_perftest", "ascend",
                        "PE 0 times `loop` puts (or gets) to PE 1 per message size 2^min_exp..2^max_exp, quiet every "
                        "`batch`; reports time per operation and bandwidth (SYMSIM_PERFTEST_CSV: append CSV rows)",
                        {{"min_exp", "smallest message: 2^min_exp bytes", 0, 28, 3},
                         {"max_exp", "largest message: 2^max_exp bytes (16 MiB = 24)", 0, 28, 12},
                         {"loop", "timed operations per size", 1, 100000, 20},
                         {"batch", "quiet every `batch` operations (0: only after the last)", 0, 100000, 0},
                         {"get", "1: time get_nbi instead of put_nbi", 0, 1, 0}},
                        1, udma_perftest_host});
SYMSIM_REGISTER_KERNEL_ARGS_CHECK(udma_perftest, check_args);
