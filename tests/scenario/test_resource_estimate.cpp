// estimate_resources / probe_address_space (sim/scenario/resource_estimate.h), which validation,
// `run --max-memory` and sweep/serve use: the terms add up, the declared heap is counted, and a
// probe that cannot fit says whether one PE alone fits. No simulation runs here.
#include <gtest/gtest.h>

#include "sim/scenario/resource_estimate.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

Scenario load(const std::vector<std::string>& sets) {
  LoadOptions o;
  o.sets = sets;
  return load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/udma_put_signal_2pe.json", o);
}

constexpr uint64_t kMiB = uint64_t{1} << 20, kGiB = uint64_t{1} << 30;

}  // namespace

TEST(ResourceEstimate, TermsAddUpAndCountTheDeclaredHeap) {
  const Scenario s = load({"kernel.args.bytes=1048576", "kernel.args.rounds=2"});
  const ResourceEstimate e = estimate_resources(s);
  ASSERT_TRUE(e.heap_bytes_per_pe && e.heap_touched_bytes_per_pe);
  EXPECT_EQ(*e.heap_bytes_per_pe, 3 * 2 * kMiB + 4 * kMiB);  // udma_put_signal: 3 x bytes x rounds + 4 MiB
  EXPECT_EQ(*e.heap_touched_bytes_per_pe, 6 * kMiB);
  uint64_t sum = 0;
  for (const MemoryTerm& t : e.memory) sum += t.bytes;
  EXPECT_EQ(sum, e.memory_bytes);
  EXPECT_GE(e.memory_bytes, 2 * 6 * kMiB);
  EXPECT_EQ(estimate_resources(s, /*tracing=*/true).memory_bytes, e.memory_bytes + 2'000'000u * 160u);
  uint64_t mapped = 0;
  for (const AddressRegion& r : e.regions) mapped += r.bytes * r.count;
  EXPECT_EQ(mapped, e.address_space_bytes);
  EXPECT_GE(e.address_space_bytes, 2 * 64 * kGiB);  // ascend910c: 64 GiB of HBM per PE
  EXPECT_EQ(e.heap_limit_bytes_per_pe, 64 * kGiB - 258 * kMiB);
}

TEST(ResourceEstimate, MemoryGrowsWithPes) {
  EXPECT_GT(estimate_resources(load({"pes=64"})).memory_bytes, estimate_resources(load({})).memory_bytes);
}

TEST(ResourceEstimate, ProbeFitsASmallRunAndBlamesTheRightField) {
  const Scenario s = load({});
  EXPECT_TRUE(probe_address_space(estimate_resources(s)).ok);
  Scenario huge = s;
  huge.params["hbm.bytes"] = 1e15;  // bypasses validation on purpose: what the probe says
  const AddressSpaceProbe p = probe_address_space(estimate_resources(huge));
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.first_pe_fits);
  EXPECT_NE(p.failed_at.find("hbm per PE #0"), std::string::npos) << p.failed_at;
}

TEST(ResourceEstimate, AvailableMemoryIsKnownOnLinux) { EXPECT_GT(available_memory_bytes(), 0u); }

TEST(ResourceEstimate, FormatsBytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(64 * kGiB), "64.0 GiB");
}
