// Parser tests: litmus file structure, instructions, aliases, conditions, expected CSV.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "sim/litmus/litmus_expected.h"
#include "sim/litmus/litmus_test.h"

namespace symsim::litmus {
namespace {

const char* kMp = R"(PTX MP
"a comment
over two lines { with a brace }"
{
x=0; y = 0;
z @ surface aliases x;
P1:r1=0; 1:r2=7;
}
 P0@cta 0,gpu 0         | P1@cta 1, gpu 0        ;
 st.weak x, 1           | ld.acquire.gpu r1, y   ;
 st.release.gpu y, 1    | LC10:                  ;
 sust.weak z, 3         | bne r1, 1, LC10        ;
                        | ld r3, 5               ;
exists
(P1:r1 == 1 /\ 1:r2 = 0 /\ ~(x != 1) \/ P1: r3 == 5)
)";

TEST(LitmusParser, ParsesThreadsPlacementAndInit) {
  ParseResult r = parse_litmus_text(kMp, "mp.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const LitmusTest& t = r.test;
  EXPECT_EQ(t.name, "MP");
  ASSERT_EQ(t.program.threads.size(), 2u);
  EXPECT_EQ(t.program.threads[1].place.cta, 1);
  EXPECT_EQ(t.program.threads[1].place.gpu, 0);
  EXPECT_EQ(t.program.threads[1].reg_init.at(2), 7);
  EXPECT_TRUE(t.unsupported.empty());
  EXPECT_EQ(t.quantifier, Quantifier::Exists);
}

TEST(LitmusParser, ParsesInstructionsAndLabels) {
  ParseResult r = parse_litmus_text(kMp, "mp.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const auto& p0 = r.test.program.threads[0].code;
  ASSERT_EQ(p0.size(), 3u);
  EXPECT_EQ(p0[0].kind, ptx::OpKind::Store);
  EXPECT_EQ(p0[0].sem, ptx::Sem::Weak);
  EXPECT_EQ(p0[1].sem, ptx::Sem::Release);
  EXPECT_EQ(p0[1].scope, ptx::Scope::Gpu);
  EXPECT_EQ(p0[2].proxy, ptx::Proxy::Surface);
  const auto& p1 = r.test.program.threads[1].code;
  ASSERT_EQ(p1.size(), 3u);  // the label is not an instruction
  EXPECT_EQ(p1[0].kind, ptx::OpKind::Load);
  EXPECT_EQ(p1[0].sem, ptx::Sem::Acquire);
  EXPECT_EQ(p1[1].kind, ptx::OpKind::Branch);
  EXPECT_EQ(p1[1].target, 1);  // LC10 labels the branch itself
  EXPECT_EQ(p1[2].kind, ptx::OpKind::Move);  // `ld r3, 5` is a move
}

TEST(LitmusParser, AliasesShareStorageButNotGenericAddress) {
  ParseResult r = parse_litmus_text(kMp, "mp.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const auto& addrs = r.test.program.addrs;
  const auto& x = addrs[r.test.addr_ids.at("x")];
  const auto& z = addrs[r.test.addr_ids.at("z")];
  EXPECT_EQ(z.physical, x.physical);
  EXPECT_EQ(z.generic, x.generic);  // a surface alias maps to the generic address of x

  ParseResult g = parse_litmus_text("PTX g\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak y, 1 ;\n"
                                    "exists (x == 1)",
                                    "g.litmus");
  ASSERT_TRUE(g.ok) << g.error;
  const auto& gy = g.test.program.addrs[g.test.addr_ids.at("y")];
  EXPECT_EQ(gy.physical, g.test.addr_ids.at("x"));
  EXPECT_NE(gy.generic, g.test.addr_ids.at("x"));  // a generic alias is another generic address
}

TEST(LitmusParser, ConditionOperatorsAndTerms) {
  ParseResult r = parse_litmus_text(kMp, "mp.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<Term> vars = condition_variables(r.test.condition);
  ASSERT_EQ(vars.size(), 4u);
  EXPECT_EQ(vars[0].name(), "P1:r1");
  EXPECT_EQ(vars[1].name(), "P1:r2");
  EXPECT_EQ(vars[2].name(), "x");
  EXPECT_EQ(vars[3].name(), "P1:r3");
  auto eval = [&](int64_t r1, int64_t r2, int64_t x, int64_t r3) {
    return evaluate(r.test.condition, [&](const Term& t) -> int64_t {
      if (t.name() == "P1:r1") return r1;
      if (t.name() == "P1:r2") return r2;
      if (t.name() == "x") return x;
      return r3;
    });
  };
  EXPECT_TRUE(eval(1, 0, 1, 0));   // left conjunction holds
  EXPECT_FALSE(eval(1, 0, 2, 0));  // ~(x != 1) fails, r3 != 5
  EXPECT_TRUE(eval(0, 0, 0, 5));   // right disjunct
}

TEST(LitmusParser, QuantifiersAndConstants) {
  auto quant = [](const std::string& cond) {
    ParseResult r = parse_litmus_text("PTX q\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n" + cond, "q.litmus");
    EXPECT_TRUE(r.ok) << r.error;
    return r.test.quantifier;
  };
  EXPECT_EQ(quant("~exists (x == 1)"), Quantifier::NotExists);
  EXPECT_EQ(quant("forall (x == 1)"), Quantifier::Forall);
  EXPECT_EQ(quant("exists 0==0"), Quantifier::Exists);
}

TEST(LitmusParser, ReportsUnsupportedInstructionsByName) {
  ParseResult r = parse_litmus_text(
      "PTX u\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.nand r0, x, 1 ;\n vote.all r1, r0 ;\n"
      "exists (x == 1)",
      "u.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.test.unsupported.size(), 2u);
  EXPECT_EQ(r.test.unsupported[0], "atom.relaxed.gpu.nand");
  EXPECT_EQ(r.test.unsupported[1], "vote.all");
}

TEST(LitmusParser, BarriersWithIdsAndQuorum) {
  ParseResult r = parse_litmus_text(
      "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bar.cta.sync 1 ;\n bar.cta.sync 1, r2 ;\n bar.cta.sync 1, 1, 3 ;\n"
      " bar.cta.arrive 2, 1 ;\nexists (x == 0)",
      "b.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const auto& code = r.test.program.threads[0].code;
  ASSERT_EQ(code.size(), 4u);
  EXPECT_FALSE(code[0].bar_named);
  EXPECT_TRUE(code[1].bar_named);
  EXPECT_TRUE(code[1].b.is_reg);
  EXPECT_TRUE(code[2].bar_quorum);
  EXPECT_EQ(code[2].c.imm, 3);
  EXPECT_TRUE(code[3].bar_arrive);
}

TEST(LitmusParser, VolatileAndMembarAreSynonyms) {
  ParseResult r = parse_litmus_text(
      "PTX v\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.volatile r1, x ;\n membar.gl ;\n red.add x, 1 ;\nexists (x == 0)",
      "v.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  const auto& code = r.test.program.threads[0].code;
  ASSERT_EQ(code.size(), 3u);
  EXPECT_EQ(code[0].sem, ptx::Sem::Relaxed);  // .volatile is .relaxed.sys
  EXPECT_EQ(code[0].scope, ptx::Scope::Sys);
  EXPECT_EQ(code[1].kind, ptx::OpKind::FenceSc);  // membar.gl is fence.sc.gpu
  EXPECT_EQ(code[1].scope, ptx::Scope::Gpu);
  EXPECT_EQ(code[2].kind, ptx::OpKind::Red);  // defaults: .relaxed.gpu
  EXPECT_EQ(code[2].sem, ptx::Sem::Relaxed);
  EXPECT_EQ(code[2].scope, ptx::Scope::Gpu);
}

TEST(LitmusParser, RejectsBrokenFiles) {
  EXPECT_FALSE(parse_litmus_text("C test\n{}\n", "c.litmus").ok);
  EXPECT_FALSE(parse_litmus_text("PTX t\n x=0;\n", "t.litmus").ok);
  EXPECT_FALSE(parse_litmus_text("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto LC99 ;\nexists (x == 0)", "t").ok);
  EXPECT_FALSE(parse_litmus_text("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P3:r0 == 0)", "t").ok);
  EXPECT_FALSE(parse_litmus_file("/nonexistent/file.litmus").ok);
}

TEST(ExpectedVerdicts, MatchesOnPathSuffix) {
  const std::string csv = testing::TempDir() + "expected.csv";
  {
    std::ofstream out(csv);
    out << "litmus/PTX/Manual/MP-cta.litmus,1\nlitmus/PTX/Nvidia/proxy/P.litmus,0\n";
  }
  ExpectedVerdicts v = ExpectedVerdicts::load(csv);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(v.find("/data/ptx/Manual/MP-cta.litmus"), 1);
  EXPECT_EQ(v.find("Nvidia/proxy/P.litmus"), 0);
  EXPECT_FALSE(v.find("/data/ptx/Other/MP-cta.litmus").has_value());
  std::remove(csv.c_str());
}

}  // namespace
}  // namespace symsim::litmus
