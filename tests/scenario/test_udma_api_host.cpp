// The host side of the UDMA API: aclshmemx_set_qp_num's return codes and freeze rules (as
// upstream: ACLSHMEM_INVALID_VALUE outside 1..32, ACLSHMEM_NOT_SUPPORTED for RoCE, other
// engines and while SHMEM is initialised, reset to 1 by finalize), and a QP count that differs
// between PEs. A test-only kernel's host program makes the calls inside a simulation.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "kernels/registry/kernel_registry.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "shmem.h"

using namespace symsim;

namespace {

void expect_code(int pe, const char* call, int got, int want) {
  check(got == want, fmt::format("pe {}: {} returns {}", pe, call, want), fmt::format("got {}", got));
}

aclshmemx_init_attr_t udma_attr(int pe) {
  aclshmemx_init_attr_t attr;
  attr.my_pe = pe;
  attr.n_pes = aclshmem_n_pes();
  attr.local_mem_size = 4u << 20;
  attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
  return attr;
}

void set_qp_num_host(int pe, const KernelArgs& a) {
  aclInit(nullptr);
  aclrtSetDevice(pe);
  expect_code(pe, "set_qp_num(UDMA, 0)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 0), ACLSHMEM_INVALID_VALUE);
  expect_code(pe, "set_qp_num(UDMA, 33)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 33), ACLSHMEM_INVALID_VALUE);
  expect_code(pe, "set_qp_num(ROCE, 4)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_ROCE, 4), ACLSHMEM_NOT_SUPPORTED);
  expect_code(pe, "set_qp_num(MTE, 4)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_MTE, 4), ACLSHMEM_NOT_SUPPORTED);
  expect_code(pe, "set_qp_num(UDMA, 32)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 32), ACLSHMEM_SUCCESS);
  // Differing counts: PE 1 asks for 3 QPs, the others for 4.
  const uint32_t qps = a.u64("mismatch") && pe == 1 ? 3 : 4;
  expect_code(pe, "set_qp_num(UDMA, 3 or 4)", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, qps), ACLSHMEM_SUCCESS);
  aclshmemx_init_attr_t attr = udma_attr(pe);
  const int init = aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr);
  if (a.u64("mismatch")) {
    expect_code(pe, "init with QP counts that differ between PEs", init, ACLSHMEM_INVALID_VALUE);
    return;
  }
  expect_code(pe, "aclshmemx_init_attr", init, ACLSHMEM_SUCCESS);
  expect_code(pe, "set_qp_num(UDMA, 2) while initialised", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 2),
              ACLSHMEM_NOT_SUPPORTED);
  expect_code(pe, "set_qp_num(UDMA, 0) while initialised", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 0),
              ACLSHMEM_INVALID_VALUE);  // the range is checked before the freeze
  expect_code(pe, "aclshmem_finalize", aclshmem_finalize(), ACLSHMEM_SUCCESS);
  expect_code(pe, "set_qp_num(UDMA, 2) after finalize", aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, 2),
              ACLSHMEM_SUCCESS);
  aclFinalize();
}

SYMSIM_REGISTER_KERNEL(test_udma_set_qp_num,
                       {"test_udma_set_qp_num", "ascend", "test: aclshmemx_set_qp_num return codes",
                        {{"mismatch", "1: PE 1 asks for another QP count", 0, 1, 0}},
                        1, set_qp_num_host});

RunOutput run_host_test(const std::string& name, int mismatch) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("symsim_{}_{}.json", name, ::getpid());
  std::ofstream(path) << fmt::format(
      R"({{"symsim": 1, "name": "{}", "platform": "ascend910c", "pes": 3,
          "kernel": {{"name": "test_udma_set_qp_num", "args": {{"mismatch": {}}}}}}})",
      name, mismatch);
  RunOutput out = run_scenario(load_scenario(path.string()), {});
  std::filesystem::remove(path);
  return out;
}

}  // namespace

TEST(UdmaApiHost, SetQpNumReturnsUpstreamCodesAndFreezesWhileInitialised) {
  const RunOutput out = run_host_test("set_qp_num", 0);
  size_t checks = 0;
  for (const auto& e : out.result["expectations"]) {
    EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
    ++checks;
  }
  EXPECT_EQ(checks, 3u * 11);
  EXPECT_EQ(out.result["status"], "pass");
}

TEST(UdmaApiHost, QpCountsThatDifferBetweenPesFailInit) {
  const RunOutput out = run_host_test("set_qp_num_mismatch", 1);
  for (const auto& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_EQ(out.result["status"], "pass");
}
