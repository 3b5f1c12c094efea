// The CQE log of a QP record (sim/checkers/cqe_log.h): one ring, two readers that forget at
// their own pace; each must see exactly what a ring of its own would hold.
#include <gtest/gtest.h>

#include <algorithm>
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

// Entries the 8-byte slot cannot hold (a skipped or repeated CQE index, a time before its block's
// first or 4.29 ms past it) are kept whole on the side: every reader still sees what was pushed,
// through growth, wrap-around and pops at both fronts.
TEST(CqeLog, EntriesThatDoNotFitAreKeptWhole) {
  CqeLog log;
  std::deque<CqeLog::Entry> known, unreaped;
  std::mt19937_64 rng(11);
  uint32_t cqe = 0xFFFFF000u;
  Ps t = Ps{1} << 40;
  for (int step = 0; step < 60000; ++step) {
    const int op = static_cast<int>(rng() % 8);
    if (op < 4) {
      const unsigned kind = static_cast<unsigned>(rng() % 64);
      if (kind == 0) cqe += static_cast<uint32_t>(rng() % 5);              // a skip
      if (kind == 1) cqe -= static_cast<uint32_t>(rng() % 3);              // back
      if (kind == 2) t += Ps{5'000'000'000};                               // 5 ms later
      if (kind == 3) t -= std::min<Ps>(t, Ps{rng() % 1000});               // earlier
      t += static_cast<Ps>(rng() % 4096);
      const CqeLog::Entry e{cqe, static_cast<uint32_t>(rng()), t};
      ++cqe;
      log.push(e, true, true);
      known.push_back(e);
      unreaped.push_back(e);
    } else if (op < 5) {
      for (unsigned n = static_cast<unsigned>(rng() % 6); n-- > 0 && !known.empty();) {
        log.pop_front(CqeLog::kKnown);
        known.pop_front();
      }
    } else if (op < 6) {
      // A reap: everything from the front up to the first CQE index above `through`.
      const uint32_t through = known.empty() ? cqe : known.front().cqe + static_cast<uint32_t>(rng() % 8) - 2;
      bool any = false;
      uint32_t wqe = 0;
      while (!known.empty() && known.front().cqe <= through) {
        wqe = known.front().wqe;
        any = true;
        known.pop_front();
      }
      uint32_t got = 0;
      ASSERT_EQ(log.pop_through(CqeLog::kKnown, through, got), any) << "step " << step;
      if (any) {
        ASSERT_EQ(got, wqe) << "step " << step;
      }
    } else {
      for (unsigned n = static_cast<unsigned>(rng() % (step % 3000 < 1500 ? 1 : 12)); n-- > 0 && !unreaped.empty();) {
        log.pop_front(CqeLog::kUnreaped);
        unreaped.pop_front();
      }
    }
    if (!known.empty()) {
      ASSERT_EQ(log.front_cqe(CqeLog::kKnown), known.front().cqe);
      ASSERT_EQ(log.front_wqe(CqeLog::kKnown), known.front().wqe);
    }
    if (step % 211 == 0) {
      expect_same(log, CqeLog::kKnown, known);
      expect_same(log, CqeLog::kUnreaped, unreaped);
    }
  }
  expect_same(log, CqeLog::kKnown, known);
  expect_same(log, CqeLog::kUnreaped, unreaped);
}
