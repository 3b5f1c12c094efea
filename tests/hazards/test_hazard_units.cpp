// Unit tests of the hazard log (folding, repeats, enable flags), the interval index, and the
// fault schema's validation (pointers, defaults, per-kind keys). No simulation.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/checkers/catalog.h"
#include "sim/checkers/hazard_log.h"
#include "sim/checkers/interval_list.h"
#include "sim/faults/fault_spec.h"
#include "sim/scenario/input_error.h"

using namespace symsim;
using nlohmann::json;

namespace {

Hazard hazard(const char* id, int64_t wqe, const char* site = "k.cpp:1") {
  Hazard h;
  h.id = id;
  h.pe = 0;
  h.slot = 1;
  h.qp = 0;
  h.wqe = wqe;
  h.site = site;
  h.detail = id;
  return h;
}

FaultLimits limits() {
  FaultLimits l;
  l.pes = 2;
  l.cores = 48;
  l.links = {"pe0->l1.0", "l1.0->pe0", "pe1->l1.0", "l1.0->pe1"};
  return l;
}

std::string pointer_of(const json& faults) {
  try {
    parse_faults(faults, "f.json", limits());
  } catch (const InputError& e) {
    return e.pointer();
  }
  return "";
}

}  // namespace

TEST(HazardLog, RepeatsAtOnePlaceAreCounted) {
  HazardLog log;
  log.report(hazard("doorbell_regression", 5));
  log.report(hazard("doorbell_regression", 6));
  log.report(hazard("doorbell_regression", 7, "k.cpp:2"));
  ASSERT_EQ(log.all().size(), 2u);
  EXPECT_EQ(log.all()[0].repeats, 1u);
  EXPECT_EQ(log.all()[1].site, "k.cpp:2");
}

TEST(HazardLog, ASecondHazardOnOneWqeIsFoldedIntoTheFirst) {
  HazardLog log;
  log.report(hazard("torn_wqe", 3));
  log.report(hazard("relay_unreachable", 3));
  ASSERT_EQ(log.all().size(), 1u);
  EXPECT_EQ(log.all()[0].id, "torn_wqe");
  EXPECT_NE(log.all()[0].detail.find("then relay_unreachable"), std::string::npos);
}

TEST(HazardLog, DisabledRulesReportNothing) {
  CheckerConfig c;
  c.set("qp_multi_producer", false);
  HazardLog log(c);
  log.report(hazard("qp_multi_producer", -1));
  log.report(hazard("sq_overrun", 0));
  ASSERT_EQ(log.all().size(), 1u);
  EXPECT_EQ(log.all()[0].id, "sq_overrun");
}

TEST(IntervalList, FindsOverlapsAndEvictsOldest) {
  IntervalList<int> l(3);
  const size_t a = l.add(100, 200, 1);
  l.add(150, 160, 2);
  l.add(1000, 5000, 3);
  std::vector<int> hits;
  l.overlapping(190, 1001, [&](size_t, int v) { hits.push_back(v); });
  EXPECT_EQ(hits, (std::vector<int>{1, 3}));
  l.add(0, 10, 4);  // evicts the first
  EXPECT_EQ(l.get(a), nullptr);
  hits.clear();
  l.overlapping(0, 300, [&](size_t, int v) { hits.push_back(v); });
  EXPECT_EQ(hits, (std::vector<int>{4, 2}));
}

TEST(Catalog, EveryFaultKindIsImplemented) {
  for (const CatalogEntry& e : fault_catalog()) EXPECT_TRUE(fault_implemented(e.id)) << e.id;
}

TEST(FaultSpec, DefaultsAndSelectors) {
  const auto specs = parse_faults(json::parse(R"([
    {"kind": "torn_block", "pe": 0, "peer": [1], "heap_range": [0, 4096], "window_us": [1, 2.5], "probability": 0.5},
    {"kind": "link_degrade", "link": "pe1->l1.0", "bandwidth_factor": 0.25},
    {"kind": "cq_overflow", "depth": 8}])"),
                                  "f.json", limits());
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].split_bytes, 480u);
  EXPECT_TRUE(specs[0].tail_first);
  EXPECT_EQ(specs[0].delay_ps, 1000u * 1000u);
  EXPECT_EQ(specs[0].window_begin_ps, 1000u * 1000u);
  EXPECT_EQ(specs[0].window_end_ps, 2500u * 1000u);
  EXPECT_EQ(specs[0].peers, std::vector<int>{1});
  EXPECT_EQ(specs[1].links, std::vector<std::string>{"pe1->l1.0"});
  EXPECT_EQ(specs[2].depth, 8u);
  EXPECT_EQ(specs[2].index, 2u);
}

TEST(FaultSpec, ErrorsNameTheJsonPointer) {
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "torn_block", "bits": 1}])")), "/faults/0/bits");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "bit_flip"}, {"kind": "reorder"}])")), "/faults/1/delay_ns");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "delay_doorbell", "qp": 40, "delay_ns": 1}])")), "/faults/0/qp");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "straggler", "core": 48, "slowdown": 2}])")), "/faults/0/core");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "link_down", "link": ["pe0->l1.0", 3]}])")), "/faults/0/link/1");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "cqe_error", "status": 0}])")), "/faults/0/status");
  EXPECT_EQ(pointer_of(json::parse(R"([{"kind": "bit_flip", "probability": "often"}])")), "/faults/0/probability");
}
