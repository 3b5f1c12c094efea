// The reaps log of a QP record (sim/checkers/reap_log.h): 8-byte entries, the core and most of the
// time left out; it must read back exactly what a plain FIFO of whole reaps holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>

#include "sim/checkers/reap_log.h"

using namespace symsim;

namespace {
void expect_same(const ReapLog& log, const std::deque<ReapLog::Reap>& model) {
  ASSERT_EQ(log.size(), model.size());
  EXPECT_EQ(log.empty(), model.empty());
  for (size_t i = 0; i < model.size(); ++i) {
    EXPECT_EQ(log.upto(i), model[i].upto);
    EXPECT_EQ(log[i].upto, model[i].upto);
    EXPECT_EQ(log[i].t, model[i].t);
    EXPECT_EQ(log[i].core, model[i].core);
  }
}
}  // namespace

// One core's reaps close together: every one fits (none kept whole, checked by the read-back).
TEST(ReapLog, OneCoresReapsReadBack) {
  ReapLog log;
  std::deque<ReapLog::Reap> model;
  Ps t = 1000;
  log.open(5);
  for (uint32_t i = 0; i < 5000; ++i) {
    t += 700 + i % 13;
    const ReapLog::Reap r{t, 3 * i, 5};
    // At most 4,096 kept: the oldest dropped from then on.
    bool dropped = false;
    log.push(r.t, r.upto, r.core, 4096, dropped);
    EXPECT_EQ(dropped, model.size() == 4096);
    model.push_back(r);
    if (model.size() > 4096) model.pop_front();
  }
  expect_same(log, model);
}

// Reaps that do not fit: other cores (the host's -1 among them), 5 ms idles, earlier times, the
// ring growing and its front dropping at its own pace, over many blocks.
TEST(ReapLog, ReapsThatDoNotFitAreKeptWhole) {
  ReapLog log;
  std::deque<ReapLog::Reap> model;
  std::mt19937_64 rng(17);
  Ps t = 123456789;
  uint32_t upto = 0xFFFFF000u;  // indices wrap past 2^32 too (the log does not compare them)
  log.open(2);
  for (int step = 0; step < 60000; ++step) {
    const int op = static_cast<int>(rng() % 8);
    if (op < 5) {
      const unsigned kind = static_cast<unsigned>(rng() % 64);
      int core = 2;
      if (kind == 0) core = -1;                                        // a CQ doorbell
      if (kind == 1) core = static_cast<int>(rng() % 48);              // another core
      if (kind == 2) t += Ps{5} * 1000 * 1000 * 1000;                  // a 5 ms idle
      if (kind == 3) t -= std::min<Ps>(t, Ps{rng() % 100000});         // earlier
      t += static_cast<Ps>(rng() % 4096);
      upto += 1 + static_cast<uint32_t>(rng() % 4);
      const ReapLog::Reap r{t, upto, core};
      // At most 2,048 kept: the ring grows to it, then drops its oldest.
      const bool full = model.size() == 2048;
      bool dropped = false;
      log.push(r.t, r.upto, r.core, 2048, dropped);
      EXPECT_EQ(dropped, full);
      if (full) model.pop_front();
      model.push_back(r);
    } else {
      const unsigned n = static_cast<unsigned>(rng() % (step % 7000 < 3500 ? 2 : 9));
      for (unsigned k = 0; k < n && !model.empty(); ++k) {
        log.pop_front();
        model.pop_front();
      }
    }
    if (step % 997 == 0) expect_same(log, model);
  }
  expect_same(log, model);
}
