// The call-site index of a QP record (sim/checkers/site_index.h): 8-byte entries, the return
// address's high bits and the doorbell's core left out; it must read back exactly what plain
// FIFOs of whole entries hold, and answer the reports' queries the same.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>

#include "sim/checkers/qp_record.h"
#include "sim/checkers/site_index.h"

using namespace symsim;

namespace {
struct Model {
  std::deque<SiteIndex::Post> posts;
  std::deque<SiteIndex::Doorbell> doorbells;
};

const void* pc_at(uint64_t a) { return reinterpret_cast<const void*>(static_cast<uintptr_t>(a)); }

void expect_same(const SiteIndex::QpSites& s, const Model& m) {
  ASSERT_EQ(s.post_count(), m.posts.size());
  ASSERT_EQ(s.bell_count(), m.doorbells.size());
  for (size_t i = 0; i < m.posts.size(); ++i) {
    EXPECT_EQ(s.post_wqe(i), m.posts[i].wqe);
    EXPECT_EQ(s.post(i).wqe, m.posts[i].wqe);
    EXPECT_EQ(s.post(i).pc, m.posts[i].pc) << i;
  }
  for (size_t i = 0; i < m.doorbells.size(); ++i) {
    EXPECT_EQ(s.bell_value(i), m.doorbells[i].value);
    EXPECT_EQ(s.doorbell(i).value, m.doorbells[i].value);
    EXPECT_EQ(s.doorbell(i).pc, m.doorbells[i].pc) << i;
    EXPECT_EQ(s.doorbell(i).core, m.doorbells[i].core) << i;
  }
}

// The model's site_of (site_index.cpp's search, over whole entries: a binary search, as an index
// pushed out of order by a re-post leaves the posts unsorted).
const void* model_site_of(const Model& m, uint32_t wqe) {
  size_t lo = 0, hi = m.posts.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (static_cast<int32_t>(m.posts[mid].wqe - wqe) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < m.posts.size() && m.posts[lo].wqe == wqe) return m.posts[lo].pc;
  for (const auto& d : m.doorbells)
    if (static_cast<int32_t>(d.value - wqe) > 0) return d.pc;
  return m.doorbells.empty() ? nullptr : m.doorbells.back().pc;
}
}  // namespace

// Posts and doorbell stores from a few sites of one mapping, others far away (other high bits,
// a 4 GiB boundary crossed), other cores, re-posts of an index, the rings growing to their cap
// and dropping their oldest, over many blocks.
TEST(SiteIndex, EntriesThatDoNotFitAreKeptWhole) {
  QpTable<QpRecord> qps;
  SiteIndex index(qps);
  const QpRef q{};
  SiteIndex::QpSites& s = qps[q].sites;
  Model m;
  std::mt19937_64 rng(36);
  const uint64_t text = 0x55d3fffff000ull;  // a mapping whose sites straddle a 4 GiB boundary
  uint32_t wqe = 0xFFFFF000u;              // indices wrap past 2^32
  uint32_t producer = wqe;
  for (int step = 0; step < 40000; ++step) {
    const unsigned kind = static_cast<unsigned>(rng() % 64);
    uint64_t a = text + rng() % 0x3000;                   // mostly one mapping's sites
    if (kind == 0) a = 0x7f12'3456'7000ull + rng() % 64;  // a library far away
    if (kind == 1) a = 0x401000 + rng() % 64;             // high bits 0
    const void* pc = pc_at(a);
    if (rng() % 2 == 0) {
      PostRecord p;
      p.qp = q;
      p.site.pc = pc;
      if (kind == 2 && !m.posts.empty()) {
        p.wqe_index = m.posts[rng() % m.posts.size()].wqe;  // a re-post of a kept index
      } else if (kind == 3) {
        p.wqe_index = wqe - 100000;  // an index long gone: pushed anew
      } else {
        wqe += 1 + static_cast<uint32_t>(rng() % 4);
        p.wqe_index = wqe;
      }
      index.on_post(p, s);
      bool found = false;
      if (!m.posts.empty() && static_cast<int32_t>(p.wqe_index - m.posts.back().wqe) <= 0)
        for (auto it = m.posts.rbegin(); it != m.posts.rend(); ++it)
          if (it->wqe == p.wqe_index) {
            it->pc = pc;
            found = true;
            break;
          }
      if (!found) {
        m.posts.push_back({pc, p.wqe_index});
        if (m.posts.size() > SiteIndex::kKeptPerQp) m.posts.pop_front();
      }
    } else {
      const int core = kind == 4 ? -1 : kind == 5 ? static_cast<int>(rng() % 48) : 7;
      producer += static_cast<uint32_t>(rng() % 5);
      const Ps t = 1000 + static_cast<Ps>(step);
      index.on_bell_store(producer, core, t, SiteIndex::pc_site(pc), s);
      m.doorbells.push_back({pc, producer, core});
      if (m.doorbells.size() > SiteIndex::kKeptPerQp) m.doorbells.pop_front();
      const auto last = index.last_doorbell(q);
      ASSERT_TRUE(last.has_value());
      EXPECT_EQ(last->value, producer);
      EXPECT_EQ(last->t, t);
      EXPECT_EQ(last->site.pc, pc);
    }
    if (step % 997 == 0) {
      expect_same(s, m);
      for (int k = 0; k < 8 && !m.posts.empty(); ++k) {
        const uint32_t w = m.posts[rng() % m.posts.size()].wqe + static_cast<uint32_t>(rng() % 3);
        EXPECT_EQ(index.site_of(q, w).pc, model_site_of(m, w));
      }
      if (!m.doorbells.empty()) {
        const auto& d = m.doorbells[rng() % m.doorbells.size()];
        int core = -1;
        for (auto it = m.doorbells.rbegin(); it != m.doorbells.rend(); ++it)
          if (it->value == d.value) {
            core = it->core;
            EXPECT_EQ(index.doorbell_site(q, d.value).pc, it->pc);
            break;
          }
        EXPECT_EQ(index.doorbell_core(q, d.value), core);
      }
    }
  }
  expect_same(s, m);
}
