// The catalogs come from the registrations beside the code: every hazard id of the product
// contract is reported by a registered checker of each family that has it, has its doc page,
// and every platform parameter and statistic has a unit.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "sim/catalog/checker_registry.h"
#include "sim/catalog/param_unit.h"
#include "sim/catalog/statistic.h"
#include "sim/checkers/catalog.h"
#include "sim/runner/platform_family.h"

using namespace symsim;

namespace {

std::set<std::string> hazard_ids() {
  std::set<std::string> ids;
  for (const CatalogEntry& e : hazard_catalog()) ids.insert(e.id);
  return ids;
}

std::string families_of(const std::string& id) {
  for (const CatalogEntry& e : hazard_catalog())
    if (id == e.id) return e.families;
  return "";
}

}  // namespace

TEST(Catalog, HazardIdsAreTheProductContract) {
  // docs/product.md's hazard ids: a registration may add one, never lose one.
  const std::set<std::string> contract = {
      "sq_overrun",          "torn_wqe",          "cq_overflow",         "cqe_error_unchecked",
      "src_reuse_before_completion", "dst_write_race", "qp_multi_producer", "token_mismatch",
      "bad_remote_addr",     "relay_unreachable", "doorbell_regression", "torn_block_consumed",
      "flag_before_data",    "unreaped_completions", "deadlock",         "timeout",
      "pipe_sync_missing",   "event_id_unpaired", "ub_out_of_bounds",    "gm_out_of_bounds",
      "unaligned_access",    "core_write_race"};
  EXPECT_EQ(hazard_ids(), contract);
}

TEST(Catalog, EveryHazardHasItsDocPage) {
  for (const std::string& id : hazard_ids()) {
    std::ifstream page(std::string(SYMSIM_TEST_SOURCE_DIR) + "/docs/hazards/" + id + ".md");
    EXPECT_TRUE(page.good()) << "docs/hazards/" << id << ".md";
  }
}

TEST(Catalog, CheckersRegisterOncePerNameAndFamily) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const catalog::CheckerInfo& c : catalog::checkers()) {
    EXPECT_TRUE(seen.insert({c.name, c.family}).second) << c.name;
    EXPECT_FALSE(c.ids.empty()) << c.name;
    EXPECT_GT(std::string(c.doc).size(), 10u) << c.name;
  }
  EXPECT_TRUE(seen.count({"sq_overrun", family::kAscend}));
  EXPECT_TRUE(seen.count({"hang_report", family::kAll}));
}

TEST(Catalog, HangHazardsServeBothFamilies) {
  EXPECT_EQ(families_of("deadlock"), "ascend, nvidia");
  EXPECT_EQ(families_of("timeout"), "ascend, nvidia");
  EXPECT_EQ(families_of("pipe_sync_missing"), "ascend");
}

TEST(Catalog, FaultKindsAreRegisteredByTheInjector) {
  std::set<std::string> kinds;
  for (const CatalogEntry& e : fault_catalog()) kinds.insert(e.id);
  EXPECT_EQ(kinds, (std::set<std::string>{"bit_flip", "cq_overflow", "cqe_error", "delay_doorbell", "drop_doorbell",
                                          "link_degrade", "link_down", "reorder", "straggler", "torn_block"}));
  EXPECT_TRUE(is_fault_kind("torn_block"));
  EXPECT_FALSE(is_fault_kind("torn_wqe"));
}

TEST(Catalog, EveryPlatformParameterHasAUnit) {
  size_t n = 0;
  for (const PlatformFamily* f : platform_families()) {
    for (const ParamInfo& p : f->parameters()) {
      EXPECT_NE(catalog::param_unit(p.key), nullptr) << f->name() << " " << p.key;
      ++n;
    }
  }
  EXPECT_GT(n, 60u);  // both families
  EXPECT_STREQ(catalog::param_unit("nvlink.gbytes_per_s"), "GB/s");
  EXPECT_STREQ(catalog::param_unit("fabric.port_latency_ns"), "ns");
  EXPECT_STREQ(catalog::param_unit("hbm.bytes"), "B");
  EXPECT_EQ(catalog::param_unit("fabric.port_latency"), nullptr);
}

TEST(Catalog, StatisticsHaveUnitsAndUniquePlaces) {
  std::set<std::string> keys;
  for (const Statistic& s : catalog::statistics()) {
    EXPECT_TRUE(keys.insert(s.key()).second) << s.key();
    EXPECT_FALSE(std::string(s.unit).empty()) << s.key();
  }
  EXPECT_TRUE(keys.count("pes[].qps[].latency_ns"));
  EXPECT_TRUE(keys.count("links[].utilization"));
}
