// The one input validator (scenario/schema_check.h): the published schema decides, and the
// message names the JSON pointer of the most specific problem in words a user can act on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/scenario/input_error.h"
#include "sim/scenario/schema_check.h"
#include "sim/scenario/set_override.h"

namespace {

using nlohmann::json;
using symsim::InputError;
using symsim::SchemaKind;

json base() {
  return json::parse(R"({"symsim":1,"name":"t","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put"}})");
}

// "pointer: what" of the first problem, or "" when the document is valid.
std::string problem(const json& doc, SchemaKind kind = SchemaKind::kScenario) {
  try {
    symsim::check_against_schema(kind, doc, "f.json");
  } catch (const InputError& e) {
    return e.pointer() + ": " + std::string(e.what()).substr(std::string("f.json: ").size() + e.pointer().size() + 2);
  }
  return "";
}

TEST(SchemaCheck, AcceptsAValidScenarioAndIntegralFloatsAsIntegers) {
  EXPECT_EQ(problem(base()), "");
  json d = base();
  d["pes"] = 2.0;  // JSON Schema: 2.0 is an integer
  EXPECT_EQ(problem(d), "");
}

TEST(SchemaCheck, NamesTheMostSpecificPointer) {
  json d = base();
  d["kernel"]["args"] = {{"bytes", "big"}};
  EXPECT_EQ(problem(d), "/kernel/args/bytes: expected a number, got string");
  d = base();
  d["pes"] = 2.5;
  EXPECT_EQ(problem(d), "/pes: expected an integer, got 2.5");
  d = base();
  d["pes"] = 0;
  EXPECT_EQ(problem(d), "/pes: 0 is out of range [1, 4096]");
  d = base();
  d.erase("kernel");
  EXPECT_EQ(problem(d), "/kernel: missing required key");
  d = base();
  d["name"] = "a\tb";
  EXPECT_EQ(problem(d), "/name: must not contain control characters");
}

TEST(SchemaCheck, FaultKeysAreThoseOfTheirKind) {
  json d = base();
  d["faults"] = json::array({{{"kind", "straggler"}, {"slowdown", 2}, {"depth", 4}}});
  EXPECT_EQ(problem(d), "/faults/0/depth: unknown key 'depth' (allowed: core, kind, pe, slowdown, window_us)");
  d["faults"] = json::array({{{"kind", "reorder"}}});
  EXPECT_EQ(problem(d), "/faults/0/delay_ns: missing required key");
}

TEST(SchemaCheck, SweepFiles) {
  EXPECT_EQ(problem(json::parse(R"({"symsim_sweep":1,"name":"s","scenarios":["a.json"]})"), SchemaKind::kSweep), "");
  EXPECT_EQ(problem(json::parse(R"({"symsim_sweep":1,"name":"a/b","scenarios":["a.json"]})"), SchemaKind::kSweep).substr(0, 6),
            "/name:");
  EXPECT_EQ(problem(json::parse(R"({"symsim_sweep":1,"name":"s","scenarios":["a.json"],"columns":{"w":"stats"}})"),
                    SchemaKind::kSweep)
                .substr(0, 11),
            "/columns/w:");
}

TEST(SetOverride, CreatesKeysOnlyWhereTheSchemaHasThem) {
  json d = base();
  symsim::apply_set(d, "f.json", symsim::parse_set("kernel.args.bytes=4096", "f.json"));
  symsim::apply_set(d, "f.json", symsim::parse_set("expect.trap=true", "f.json"));
  symsim::apply_set(d, "f.json", symsim::parse_set("platform.hbm.bytes=1024", "f.json"));
  symsim::apply_set(d, "f.json", symsim::parse_set("kernel.name=udma_put_signal", "f.json"));
  EXPECT_EQ(d["kernel"]["args"]["bytes"], 4096);
  EXPECT_EQ(d["expect"]["trap"], true);
  EXPECT_EQ(d["overrides"]["hbm.bytes"], 1024);
  EXPECT_EQ(d["kernel"]["name"], "udma_put_signal");  // a bare word is a string
  try {
    symsim::apply_set(d, "f.json", symsim::parse_set("expect.hazard=[]", "f.json"));
    FAIL() << "a key the format does not have was created";
  } catch (const InputError& e) {
    EXPECT_EQ(e.pointer(), "/expect/hazard");
  }
  EXPECT_THROW(symsim::parse_set("novalue", "f.json"), InputError);
}

}  // namespace
