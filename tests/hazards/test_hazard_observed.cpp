// The hazard log and "observed": a hazard first reported from the ordering rules alone
// (observed = false) and then seen happening at the same place becomes one observed report,
// with the observed detail; an observed report stays observed.
#include <gtest/gtest.h>

#include "sim/checkers/hazard_log.h"

using namespace symsim;

namespace {

Hazard at_wqe(bool observed, const char* detail) {
  Hazard h;
  h.id = "flag_before_data";
  h.pe = 0;
  h.slot = 1;
  h.qp = 0;
  h.wqe = 0;
  h.core = 0;
  h.site = "kernels/x.cpp:1";
  h.observed = observed;
  h.detail = detail;
  return h;
}

}  // namespace

TEST(HazardObserved, AnObservedRepeatUpgradesTheRulesOnlyReport) {
  HazardLog log;
  log.report(at_wqe(false, "only by timing"));
  log.report(at_wqe(true, "overtook"));
  ASSERT_EQ(log.all().size(), 1u);
  EXPECT_TRUE(log.all()[0].observed);
  EXPECT_EQ(log.all()[0].detail, "overtook");
  EXPECT_EQ(log.all()[0].repeats, 1u);
}

TEST(HazardObserved, AnUnobservedRepeatKeepsTheObservedReport) {
  HazardLog log;
  log.report(at_wqe(true, "overtook"));
  log.report(at_wqe(false, "only by timing"));
  ASSERT_EQ(log.all().size(), 1u);
  EXPECT_TRUE(log.all()[0].observed);
  EXPECT_EQ(log.all()[0].detail, "overtook");
}

TEST(HazardObserved, AModelHazardWithoutAWqeUpgradesByPlace) {
  HazardLog log;
  Hazard a = at_wqe(false, "only by timing");
  a.wqe = -1;
  a.qp = -1;
  Hazard b = a;
  b.observed = true;
  b.detail = "land only at";
  log.report(a);
  log.report(b);
  ASSERT_EQ(log.all().size(), 1u);
  EXPECT_TRUE(log.all()[0].observed);
  EXPECT_EQ(log.all()[0].detail, "land only at");
}
