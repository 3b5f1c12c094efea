// Behaviour of the PTX model on classic shapes: the weak outcome must show up under some
// seed when nothing forbids it, and never when release/acquire, fence.sc or coherence do.
#include <gtest/gtest.h>

#include "sim/litmus/litmus_runner.h"
#include "sim/litmus/litmus_test.h"
#include "sim/litmus/litmus_verdict.h"
#include "models/ptx/ptx_machine.h"

namespace symsim::litmus {
namespace {

constexpr int kSeeds = 400;

// True if some seed reaches the test's condition (its `exists` body).
bool reached(const std::string& text, int seeds = kSeeds) {
  ParseResult r = parse_litmus_text(text, "inline.litmus");
  EXPECT_TRUE(r.ok) << r.error;
  RunOptions options;
  options.seeds = seeds;
  const Observation obs = run_litmus(r.test, options);
  EXPECT_GT(obs.finished, 0);
  return judge(r.test, obs, std::nullopt).outcome_observed;
}

std::string mp(const std::string& store_flag, const std::string& load_flag, const std::string& p1 = "cta 0,gpu 0") {
  return "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@" + p1 + " ;\n st.weak x, 1 | " + load_flag +
         " r1, y ;\n " + store_flag + " y, 1 | ld.weak r2, x ;\nexists (P1:r1 == 1 /\\ P1:r2 == 0)";
}

TEST(PtxModel, MessagePassingWithoutSyncShowsStaleData) {
  EXPECT_TRUE(reached(mp("st.weak", "ld.weak")));
  EXPECT_TRUE(reached(mp("st.relaxed.gpu", "ld.relaxed.gpu")));
}

TEST(PtxModel, MessagePassingWithReleaseAcquireNeverShowsStaleData) {
  EXPECT_FALSE(reached(mp("st.release.gpu", "ld.acquire.gpu")));
  EXPECT_FALSE(reached(mp("st.release.cta", "ld.acquire.cta")));
  EXPECT_FALSE(reached(mp("st.release.sys", "ld.acquire.sys", "cta 0,gpu 1")));
}

TEST(PtxModel, ReleaseAcquireOutOfScopeDoesNotSynchronise) {
  // .cta release/acquire between different CTAs are not morally strong.
  EXPECT_TRUE(reached(mp("st.release.cta", "ld.acquire.cta", "cta 1,gpu 0")));
  EXPECT_TRUE(reached(mp("st.release.gpu", "ld.acquire.gpu", "cta 0,gpu 1")));
}

std::string sb(const std::string& fence) {
  return "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n " + fence +
         " | " + fence + " ;\n ld.weak r1, y | ld.weak r2, x ;\nexists (P0:r1 == 0 /\\ P1:r2 == 0)";
}

TEST(PtxModel, StoreBufferingWithoutFenceIsReached) {
  EXPECT_TRUE(reached(sb("")));
  EXPECT_TRUE(reached(sb("fence.acq_rel.gpu")));  // acq_rel does not forbid SB
  EXPECT_TRUE(reached(sb("fence.sc.cta")));       // different CTAs: not morally strong
}

TEST(PtxModel, StoreBufferingWithFenceScIsNeverReached) {
  EXPECT_FALSE(reached(sb("fence.sc.gpu")));
  EXPECT_FALSE(reached(sb("fence.sc.sys")));
}

std::string corr(const std::string& load) {
  return "PTX CoRR\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | " + load +
         " r1, x ;\n | " + load + " r2, x ;\nexists (P1:r1 == 1 /\\ P1:r2 == 0)";
}

TEST(PtxModel, CoherenceOfStrongReads) {
  EXPECT_FALSE(reached(corr("ld.relaxed.gpu")));
  EXPECT_FALSE(reached(corr("ld.acquire.sys")));
}

TEST(PtxModel, WeakReadsNeedNotBeCoherent) {
  // Two weak loads are not morally strong with the store: PTX allows reading back in time.
  EXPECT_TRUE(reached(corr("ld.weak")));
}

TEST(PtxModel, OwnWritesAreSeen) {
  EXPECT_FALSE(reached("PTX CoWR\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n ld.weak r1, x ;\n"
                       "exists (P0:r1 == 0)"));
}

TEST(PtxModel, AtomicsAreAtomicWhenMorallyStrong) {
  const std::string add = "PTX add\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                          " atom.relaxed.SCOPE.add r0, x, 1 | atom.relaxed.SCOPE.add r0, x, 1 ;\nexists (x == 1)";
  auto with_scope = [&](const std::string& scope) {
    std::string s = add;
    for (size_t at = s.find("SCOPE"); at != std::string::npos; at = s.find("SCOPE")) s.replace(at, 5, scope);
    return s;
  };
  EXPECT_FALSE(reached(with_scope("gpu")));
  EXPECT_TRUE(reached(with_scope("cta")));  // cta-scoped atomics in different CTAs may both read 0
}

TEST(PtxModel, BarrierOrdersAndDeadlocks) {
  EXPECT_FALSE(reached("PTX bar\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | bar.cta.sync 1 ;\n"
                       " bar.cta.sync 1 | ld.weak r0, x ;\nexists (P1:r0 == 0)"));
  ParseResult r = parse_litmus_text(
      "PTX dead\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.cta.sync 0 | bar.cta.sync 1 ;\n"
      " bar.cta.sync 1 | bar.cta.sync 0 ;\nexists (x == 0)",
      "dead.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  RunOptions options;
  options.seeds = 20;
  const Observation obs = run_litmus(r.test, options);
  EXPECT_EQ(obs.finished, 0);
  EXPECT_EQ(obs.deadlocked, 20);
}

TEST(PtxModel, SameSeedSameRun) {
  ParseResult r = parse_litmus_text(sb(""), "sb.litmus");
  ASSERT_TRUE(r.ok) << r.error;
  for (uint64_t seed = 1; seed < 50; ++seed) {
    ptx::Machine a(r.test.program, seed);
    ptx::Machine b(r.test.program, seed);
    const ptx::RunResult ra = a.run(1000);
    const ptx::RunResult rb = b.run(1000);
    EXPECT_EQ(ra.regs, rb.regs);
    EXPECT_EQ(ra.steps, rb.steps);
  }
}

}  // namespace
}  // namespace symsim::litmus
