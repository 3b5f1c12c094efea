// The hazard matrix: every scenario under scenarios/hazards/ passes (its expect.hazards are
// exactly what is reported); each buggy kernel's hazard is reported at the exact PE, QP and
// WQE, with the kernel's own source line as the call site; each corrected kernel reports
// nothing. One simulation per test process (gtest_discover_tests).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;
using nlohmann::json;

namespace {

struct Where {
  const char* id;
  int pe;
  int slot;  // -1: not QP-related (or any)
  int qp;    // -1: any
  int64_t wqe;  // -1: any / none
  int core;     // -1: any
  const char* site_file;  // the call site must be in this kernel source
  const char* detail;     // a phrase the detail must hold
};

RunOutput run(const std::string& file) {
  return run_scenario(load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/hazards/" + file + ".json"), {});
}

std::string all_expectations(const json& r) {
  std::string s;
  for (const json& e : r["expectations"])
    if (!e["ok"].get<bool>()) s += e.dump() + "\n";
  return s + r["hazards"].dump(2);
}

void expect_reported(const RunOutput& out, const Where& w) {
  EXPECT_EQ(out.result["status"], "pass") << all_expectations(out.result);
  std::optional<json> found;
  for (const json& h : out.result["hazards"]) {
    if (h["id"] != w.id || h["pe"] != w.pe) continue;
    if (w.slot >= 0 && (!h.contains("slot") || h["slot"] != w.slot)) continue;
    if (w.qp >= 0 && h["qp"] != w.qp) continue;
    if (w.wqe >= 0 && h["wqe"] != w.wqe) continue;
    if (w.core >= 0 && (!h.contains("core") || h["core"] != w.core)) continue;
    found = h;
    break;
  }
  ASSERT_TRUE(found) << "no " << w.id << " at pe " << w.pe << " slot " << w.slot << " qp " << w.qp << " wqe " << w.wqe
                     << " in " << out.result["hazards"].dump(2);
  ASSERT_TRUE(found->contains("site")) << found->dump();
  EXPECT_NE((*found)["site"].get<std::string>().find(w.site_file), std::string::npos) << found->dump();
  EXPECT_NE((*found)["detail"].get<std::string>().find(w.detail), std::string::npos) << found->dump();
  EXPECT_GT((*found)["time_ns"].get<double>(), 0.0);
}

void expect_clean(const RunOutput& out) {
  EXPECT_EQ(out.result["status"], "pass") << all_expectations(out.result);
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump(2);
}

class Buggy : public testing::TestWithParam<Where> {};
class Fixed : public testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(Buggy, ReportsItsHazardAtTheExactPlace) {
  const Where& w = GetParam();
  expect_reported(run(std::string(w.id) + "_buggy"), w);
}

TEST_P(Fixed, ReportsNothing) { expect_clean(run(std::string(GetParam()) + "_fixed")); }

INSTANTIATE_TEST_SUITE_P(
    Matrix, Buggy,
    testing::Values(
        Where{"sq_overrun", 0, 1, 0, 0, 0, "sq_overrun/sq_overrun_kernel.cpp", "overwritten before the engine read them"},
        Where{"torn_wqe", 0, 1, 0, 0, 0, "torn_wqe/torn_wqe_kernel.cpp", "SetFlag/WaitFlag<MTE3_S>"},
        Where{"cq_overflow", 0, 1, 0, 128, -1, "cq_overflow/cq_overflow_kernel.cpp", "found the CQ full"},
        Where{"cqe_error_unchecked", 0, 1, 0, 0, -1, "cqe_error_unchecked/cqe_error_unchecked_kernel.cpp",
              "status was ignored"},
        Where{"src_reuse_before_completion", 0, 1, 0, 0, 0, "src_reuse_before_completion/src_reuse_kernel.cpp",
              "before the put completed"},
        Where{"dst_write_race", 0, 1, -1, 0, -1, "dst_write_race/dst_write_race_kernel.cpp", "neither was posted"},
        Where{"qp_multi_producer", 0, 1, 0, -1, 1, "qp_multi_producer/qp_multi_producer_kernel.cpp",
              "not reserved atomically"},
        Where{"token_mismatch", 0, 1, 0, 0, -1, "token_mismatch/token_mismatch_kernel.cpp", "carries token 0x0"},
        Where{"bad_remote_addr", 0, 1, 0, 0, -1, "bad_remote_addr/bad_remote_addr_kernel.cpp", "outside its registered"},
        Where{"relay_unreachable", 0, 1, 0, 0, -1, "relay_unreachable/relay_unreachable_kernel.cpp",
              "EID decodes to PE 2"},
        Where{"doorbell_regression", 0, 1, 0, 0, 0, "doorbell_regression/doorbell_regression_kernel.cpp",
              "back from 63 to 0"},
        Where{"torn_block_consumed", 1, -1, -1, -1, 0, "torn_block_consumed/data_as_flag_kernel.cpp",
              "after reading its landed part"},
        Where{"flag_before_data", 0, 1, 0, 0, -1, "flag_before_data/flag_before_data_kernel.cpp",
              "the flag overtook the data"},
        Where{"unreaped_completions", 0, 1, 0, 0, -1, "unreaped_completions/unreaped_kernel.cpp", "never polled"},
        Where{"deadlock", 0, -1, -1, -1, 0, "deadlock/deadlock_kernel.cpp", "holds 0x0"},
        Where{"timeout", 0, -1, -1, -1, 0, "", "time limit"},
        Where{"pipe_sync_missing", 0, -1, -1, -1, 0, "pipe_sync_missing/pipe_sync_missing_kernel.cpp",
              "PIPE_MTE3 reads bytes that PIPE_MTE2 wrote"},
        Where{"event_id_unpaired", 0, -1, -1, -1, 0, "event_id_unpaired/event_id_unpaired_kernel.cpp",
              "never waited"},
        Where{"ub_out_of_bounds", 0, -1, -1, -1, 0, "ub_out_of_bounds/ub_out_of_bounds_kernel.cpp",
              "allocated only bytes 0..4095"},
        Where{"gm_out_of_bounds", 0, 1, 0, 0, -1, "gm_out_of_bounds/gm_out_of_bounds_kernel.cpp",
              "outside every allocation"},
        Where{"unaligned_access", 0, -1, -1, -1, 0, "unaligned_access/unaligned_access_kernel.cpp",
              "not a multiple of 32 B"},
        Where{"core_write_race", 0, -1, -1, -1, 1, "core_write_race/core_write_race_kernel.cpp",
              "AIV core 0 also wrote"}),
    [](const testing::TestParamInfo<Where>& i) { return std::string(i.param.id); });

INSTANTIATE_TEST_SUITE_P(Matrix, Fixed,
                         testing::Values("sq_overrun", "torn_wqe", "cq_overflow", "cqe_error_unchecked",
                                         "src_reuse_before_completion", "dst_write_race", "qp_multi_producer",
                                         "token_mismatch", "bad_remote_addr", "relay_unreachable",
                                         "doorbell_regression", "torn_block_consumed", "flag_before_data",
                                         "unreaped_completions", "deadlock", "timeout", "pipe_sync_missing",
                                         "event_id_unpaired", "ub_out_of_bounds", "gm_out_of_bounds",
                                         "unaligned_access", "core_write_race"),
                         [](const testing::TestParamInfo<const char*>& i) { return std::string(i.param); });
