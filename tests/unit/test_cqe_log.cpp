// The CQE log of a QP record (sim/checkers/cqe_log.h): one ring, two readers that forget at
// their own pace; each must see exactly what a ring of its own would hold.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "sim/checkers/cqe_log.h"

using namespace symsim;

namespace {
void expect_same(const CqeLog& log, CqeLog::Reader r, const std::deque<CqeLog::Entry>& model) {
  ASSERT_EQ(log.size(r), model.size());
  EXPECT_EQ(log.empty(r), model.empty());
  for (size_t i = 0; i < model.size(); ++i) {
    EXPECT_EQ(log.get(r, i).cqe, model[i].cqe);
    EXPECT_EQ(log.get(r, i).wqe, model[i].wqe);
    EXPECT_EQ(log.get(r, i).cqe_ps, model[i].cqe_ps);
  }
  if (!model.empty()) {
    EXPECT_EQ(log.front(r).cqe, model.front().cqe);
    EXPECT_EQ(log.back().cqe, model.back().cqe);
  }
}
}  // namespace

TEST(CqeLog, EachReaderSeesItsOwnRing) {
  CqeLog log;
  std::deque<CqeLog::Entry> known, unreaped;
  std::mt19937 rng(7);
  uint32_t next = 0xFFFFFF00u;  // sequence numbers wrap too
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 8);
    if (op < 4) {
      const CqeLog::Entry e{next, next * 2, Ps{next} * 10};
      ++next;
      log.push(e, true, true);
      known.push_back(e);
      unreaped.push_back(e);
    } else if (op < 6) {
      for (unsigned n = rng() % 6; n-- > 0 && !known.empty();) {
        log.pop_front(CqeLog::kKnown);
        known.pop_front();
      }
    } else {
      for (unsigned n = rng() % (step % 1000 < 500 ? 1 : 12); n-- > 0 && !unreaped.empty();) {
        log.pop_front(CqeLog::kUnreaped);
        unreaped.pop_front();
      }
    }
    if (step % 97 == 0) {
      expect_same(log, CqeLog::kKnown, known);
      expect_same(log, CqeLog::kUnreaped, unreaped);
    }
  }
  expect_same(log, CqeLog::kKnown, known);
  expect_same(log, CqeLog::kUnreaped, unreaped);
}

TEST(CqeLog, AReaderWhoseRuleIsOffStaysEmpty) {
  CqeLog log;
  for (uint32_t i = 0; i < 100; ++i) log.push({i, i, i}, true, false);
  EXPECT_EQ(log.size(CqeLog::kKnown), 100u);
  EXPECT_TRUE(log.empty(CqeLog::kUnreaped));
  for (int i = 0; i < 100; ++i) log.pop_front(CqeLog::kKnown);
  for (uint32_t i = 0; i < 10; ++i) log.push({i, i, i}, false, true);
  EXPECT_TRUE(log.empty(CqeLog::kKnown));
  EXPECT_EQ(log.size(CqeLog::kUnreaped), 10u);
  EXPECT_EQ(log.front(CqeLog::kUnreaped).cqe, 0u);
}
