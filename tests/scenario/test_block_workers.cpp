// Kernel launches reuse each AIV core's SystemC thread (kernels/shim/ascend/src/launch.cpp):
// the blocks of successive launches on one stream run on the same thread per core, one after
// the other in stream order, each block exactly once; a wider launch makes threads only for the
// cores it adds. A test-only kernel records what each block saw.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <systemc>

#include "kernels/registry/kernel_registry.h"
#include "models/ascend/aiv_core.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "shmem.h"
#include "symsim/launch.h"
#include "symsim/shim_core.h"

using namespace symsim;

namespace {

struct BlockRun {
  int launch = 0, pe = 0;
  uint32_t block = 0;
  std::string thread;  // the SystemC process the block ran on
  Ps start_ps = 0, end_ps = 0;
};
std::vector<BlockRun>& runs() {
  static std::vector<BlockRun> r;
  return r;
}

void record_block(int launch, uint64_t* buf) {
  AivCore& c = *AivCore::current();
  BlockRun r{launch, shim::my_pe(), shim::block().block_idx, sc_core::sc_get_current_process_handle().name(),
             c.local_ps(), 0};
  for (int i = 0; i < 4; ++i) shim::device_load(buf + shim::block().block_idx, 8);  // some time on the core
  r.end_ps = AivCore::current()->local_ps();
  runs().push_back(r);
}

void block_workers_host(int pe, const KernelArgs&) {
  aclInit(nullptr);
  aclrtSetDevice(pe);
  aclshmemx_init_attr_t attr;
  attr.my_pe = pe;
  attr.n_pes = aclshmem_n_pes();
  attr.local_mem_size = 4u << 20;
  attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
  aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr);
  auto* buf = static_cast<uint64_t*>(aclshmem_malloc(4096));
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  const uint32_t widths[] = {4, 6, 2};
  for (int launch = 0; launch < 3; ++launch)
    shim::launch_kernel("test_block_worker", widths[launch], s, [launch, buf]() { record_block(launch, buf); });
  aclrtSynchronizeStream(s);
  size_t mine = 0;
  for (const BlockRun& r : runs()) mine += r.pe == pe;
  check(mine == 4 + 6 + 2, fmt::format("pe {}: every block of the three launches ran", pe), fmt::format("{} ran", mine));
  aclrtDestroyStream(s);
  aclshmem_free(buf);
  aclshmem_finalize();
  aclFinalize();
}

SYMSIM_REGISTER_KERNEL(test_block_workers, {"test_block_workers", "ascend",
                                            "test: three launches of 4, 6 and 2 blocks on one stream",
                                            {},
                                            1,
                                            block_workers_host});

TEST(BlockWorkers, LaunchesOnOneStreamReuseEachCoresThreadInStreamOrder) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("symsim_block_workers_{}.json", ::getpid());
  std::ofstream(path) << R"({"symsim": 1, "name": "block_workers", "platform": "ascend910c", "pes": 2,
                            "kernel": {"name": "test_block_workers"}})";
  const RunOutput out = run_scenario(load_scenario(path.string()), {});
  std::filesystem::remove(path);
  EXPECT_EQ(out.result["status"], "pass") << out.result.dump();

  ASSERT_EQ(runs().size(), 2u * (4 + 6 + 2));
  std::map<std::pair<int, uint32_t>, std::string> thread_of;  // (pe, core) -> process
  std::map<std::pair<int, int>, Ps> launch_end, launch_start;  // (pe, launch)
  std::map<std::tuple<int, int, uint32_t>, int> seen;
  for (const BlockRun& r : runs()) {
    ++seen[{r.pe, r.launch, r.block}];
    auto [it, fresh] = thread_of.emplace(std::make_pair(r.pe, r.block), r.thread);
    EXPECT_EQ(it->second, r.thread) << "pe " << r.pe << " core " << r.block << " launch " << r.launch;
    Ps& end = launch_end[{r.pe, r.launch}];
    end = std::max(end, r.end_ps);
    auto [st, first] = launch_start.emplace(std::make_pair(r.pe, r.launch), r.start_ps);
    if (!first) st->second = std::min(st->second, r.start_ps);
    EXPECT_LT(r.start_ps, r.end_ps);
  }
  for (const auto& [key, n] : seen) EXPECT_EQ(n, 1);
  EXPECT_EQ(thread_of.size(), 2u * 6);  // one thread per core used, not one per block
  for (int pe = 0; pe < 2; ++pe)
    for (int launch = 1; launch < 3; ++launch)
      EXPECT_GE(launch_start.at({pe, launch}), launch_end.at({pe, launch - 1})) << "pe " << pe << " launch " << launch;
}

}  // namespace
