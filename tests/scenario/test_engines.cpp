// The CANN SHMEM engines beyond UDMA (udma_engines): SDMA and RoCE copies, RoCE atomics, MTE
// atomic adds and the Ascend 950's MTE atomics move the bytes and values the host programs
// check; calls a platform lacks stop the kernel naming them; and the engines' time shows in
// the run (a RoCE put is slower than an SDMA put of the same bytes, by the NIC's bandwidth).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

std::string scenario(const std::string& name) { return std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/" + name + ".json"; }

RunOutput run(const std::string& name, std::vector<std::string> sets = {}, std::vector<Observer*> obs = {}) {
  LoadOptions o;
  o.sets = std::move(sets);
  return run_scenario(load_scenario(scenario(name), o), {}, obs);
}

// From the first block's start to the last block's end.
struct KernelSpan : Observer {
  Ps first = UINT64_MAX, last = 0;
  void on_block_start(int, int, const char*, Ps t) override { first = std::min(first, t); }
  void on_block_end(int, int, const char*, Ps t) override { last = std::max(last, t); }
  double us() const { return ps_to_us(last - first); }
};

void expect_pass(const RunOutput& out, size_t min_checks) {
  for (const auto& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_GE(out.result["expectations"].size(), min_checks);
  EXPECT_EQ(out.result["status"], "pass");
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump();
}

std::string failures(const RunOutput& out) {
  std::string all;
  for (const auto& e : out.result["expectations"])
    if (!e["ok"].get<bool>()) all += e["what"].get<std::string>() + ": " + e["detail"].get<std::string>() + "\n";
  return all;
}


}  // namespace

// 4 PEs x 2 blocks: 12 puts of 32 KiB each per PE, a 64 KiB get; every slot on every PE checked.
TEST(Engines, SdmaPutsGetsPrefetchAndNotifyMoveEveryByte) { expect_pass(run("udma_engines_sdma"), 4 * 7); }

TEST(Engines, RocePutsGetsQuietAndBarriersMoveEveryByte) { expect_pass(run("udma_engines_roce"), 4 * 7); }

// A 1 MiB slot: each PE puts 3 MiB through its NIC's one 25 GB/s transmit port (3 x 41.9 us)
// and receives 3 puts and its get through its receive port. Ports serve transfers in the order
// the doorbells reached them, and every PE puts to PE 0 first: PE 0's receive port takes three
// puts back to back while each sender's later puts wait at their receivers, so the busiest port
// is busy for at most 7 transfers (its 4 and the 3 it waits behind), plus 20 us of WQE, latency
// and barrier terms.
TEST(Engines, RocePutsAreBoundByTheNicPort) {
  KernelSpan span;
  const RunOutput out = run("udma_engines_roce", {"kernel.args.bytes=1048576"}, {&span});
  expect_pass(out, 4 * 7);
  const double transfer_us = 1048576 / 25e3;
  EXPECT_GT(span.us(), 3 * transfer_us);
  EXPECT_LT(span.us(), 7 * transfer_us + 20);
}

// The same slots by SDMA, 2 blocks: block 0's queue runs on one 50 GB/s channel its 3 puts of
// 512 KiB, the 1 MiB get and the 1 MiB prefetch (73.4 us); block 1's queue runs on another
// channel at the same time. Under 15 us more: 7 SQE dispatches (0.5 us each) with their HBM and
// path latencies, the quiet's poll round, the device barrier (2 x 1.3 us) and the PEs' launch
// skew.
TEST(Engines, SdmaQueuesRunOnTheirChannels) {
  KernelSpan span;
  const RunOutput out = run("udma_engines_sdma", {"kernel.args.bytes=1048576"}, {&span});
  expect_pass(out, 4 * 7);
  const double block0_us = (3 * 524288 + 2 * 1048576) / 50e3;
  EXPECT_GT(span.us(), block0_us);
  EXPECT_LT(span.us(), block0_us + 15);
}

TEST(Engines, RoceAtomicsOnTheXscaleBackend) {
  expect_pass(run("udma_engines_roce", {"kernel.args.part=2", "platform.roce.xscale_atomics=1"}), 9 + 3);
}

TEST(Engines, RoceAtomicsStopTheKernelWithoutTheXscaleBackend) {
  const RunOutput out = run("udma_engines_roce", {"kernel.args.part=2"});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string f = failures(out);
  EXPECT_NE(f.find("aclshmemx_roce_atomic_add: RoCE atomics are issued on upstream's XSCALE RDMA backend only"),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("udma_engines_kernel.cpp:"), std::string::npos) << f;
}

// 2 blocks on each of 4 PEs: every add counts (int8 3 x 2, ..., PE 0's word 2 x (1+2+3+4)).
TEST(Engines, MteAtomicAddsFromEveryBlockAllCount) { expect_pass(run("udma_engines_mte_atomics"), 4 * 8); }

TEST(Engines, Ascend950MteAtomics) {
  expect_pass(run("udma_engines_mte_atomics", {"kernel.args.part=4", "platform.aiv.gm_atomics=1"}), 8 + 2);
}

TEST(Engines, Ascend950MteAtomicsStopThe910cKernelNamingTheCall) {
  const RunOutput out = run("udma_engines_mte_atomics", {"kernel.args.part=4"});
  EXPECT_EQ(out.result["status"], "fail");
  const std::string f = failures(out);
  EXPECT_NE(f.find("AscendC::AtomicAdd: scalar GM atomics are an Ascend 950 feature this platform lacks"),
            std::string::npos)
      << f;
}

TEST(Engines, SimtBlockWarpAndThreadFormsMoveEveryByte) { expect_pass(run("udma_engines_simt"), 4 * 6); }
