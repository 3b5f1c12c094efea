// unreaped_completions' oldest kept CQE index (UnreapedCompletionsChecker::QpCompletions): worked
// out as front + 1 while the logged indices are consecutive, read from the CQE log otherwise.
// Either way it must forget exactly what the rule did when it read every front from the log.
#include <gtest/gtest.h>

#include <random>

#include "sim/checkers/cqe_log.h"
#include "sim/checkers/unreaped_completions.h"

using namespace symsim;

namespace {
constexpr CqeLog::Reader kMine = CqeLog::kUnreaped;

// The rule as it was: each new front's index read from the log.
struct ReadFront {
  uint32_t consumed = 0, front_cqe = 0;
  void on_logged(uint32_t cqe_index, CqeLog& w, size_t kept) {
    if (w.size(kMine) == 1) front_cqe = cqe_index;
    while (!w.empty(kMine) && (w.size(kMine) > kept || static_cast<int32_t>(front_cqe - consumed) < 0)) {
      w.pop_front(kMine);
      if (!w.empty(kMine)) front_cqe = w.front(kMine).cqe;
    }
  }
};

// Random CQEs: mostly the next index, sometimes a skipped one, sometimes one logged without the
// rule hearing it, and CQ doorbells returning part of them.
void run(uint32_t first, unsigned seed, size_t kept) {
  CqeLog ref_log, log;
  ReadFront ref;
  UnreapedCompletionsChecker::QpCompletions c;
  std::mt19937 rng(seed);
  uint32_t next = first;
  for (int step = 0; step < 50000; ++step) {
    const unsigned op = rng() % 100;
    if (op < 3) {  // a CQ doorbell
      const uint32_t upto = next - rng() % 6;
      ref.consumed = c.consumed = upto;
      continue;
    }
    next += op < 6 ? 1 + rng() % 3 : 0;  // a skipped index
    const CqeLog::Entry e{next, next, Ps{1}};
    ++next;
    ref_log.push(e, false, true);
    log.push(e, false, true);
    if (op < 8) continue;  // logged, not heard by the rule
    ref.on_logged(e.cqe, ref_log, kept);
    c.on_logged(e.cqe, log, kept);
    ASSERT_EQ(log.size(kMine), ref_log.size(kMine)) << "step " << step;
    ASSERT_EQ(c.front_cqe, ref.front_cqe) << "step " << step;
    if (!log.empty(kMine) && !c.gaps) {
      ASSERT_EQ(c.front_cqe, log.front(kMine).cqe) << "step " << step;
    }
  }
}
}  // namespace

TEST(UnreapedFront, ForgetsWhatReadingTheLogForgot) {
  run(0, 1, 8);
  run(0, 2, 4096);
  run(0xFFFFFF00u, 3, 16);  // indices wrap
}

TEST(UnreapedFront, ConsecutiveIndicesNeedNoRead) {
  CqeLog log;
  UnreapedCompletionsChecker::QpCompletions c;
  for (uint32_t i = 0; i < 100; ++i) {
    log.push({i, i, Ps{1}}, false, true);
    c.on_logged(i, log, 8);
  }
  EXPECT_FALSE(c.gaps);
  EXPECT_EQ(log.size(kMine), 8u);
  EXPECT_EQ(c.front_cqe, 92u);
  log.push({105, 105, Ps{1}}, false, true);  // a skipped index: read from the log until it empties
  c.on_logged(105, log, 8);
  EXPECT_TRUE(c.gaps);
  EXPECT_EQ(c.front_cqe, log.front(kMine).cqe);
}
