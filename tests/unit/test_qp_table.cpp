// The per-QP table behind the shim, the checkers and the statistics: entries keep their
// addresses while the index grows (the checkers keep pointers to them), missing QPs are not
// made by find(), in_order() lists (PE, slot, QP) order, and a copy owns its own entries.
#include <gtest/gtest.h>

#include <vector>

#include "models/core/qp_table.h"

using namespace symsim;

namespace {
std::vector<QpRef> many_qps() {
  std::vector<QpRef> qps;
  for (int pe = 0; pe < 40; ++pe)
    for (int slot = -1; slot < 2; ++slot)
      for (int qp = 0; qp < 60; ++qp) qps.push_back({(pe * 7) % 40, slot, (qp * 13) % 60});
  return qps;
}
}  // namespace

TEST(QpTable, EntriesStayPutWhileTheIndexGrows) {
  QpTable<int> t;
  const std::vector<QpRef> qps = many_qps();
  std::vector<int*> first;
  for (size_t i = 0; i < qps.size(); ++i) {
    int& v = t[qps[i]];
    EXPECT_EQ(v, 0);  // value-initialized
    v = static_cast<int>(i) + 1;
    first.push_back(&v);
  }
  EXPECT_EQ(t.size(), qps.size());
  for (size_t i = 0; i < qps.size(); ++i) {
    EXPECT_EQ(&t[qps[i]], first[i]);
    ASSERT_NE(t.find(qps[i]), nullptr);
    EXPECT_EQ(*t.find(qps[i]), static_cast<int>(i) + 1);
  }
}

TEST(QpTable, FindDoesNotMakeAnEntry) {
  QpTable<int> t;
  EXPECT_EQ(t.find(QpRef{3, 0, 1}), nullptr);
  t[{3, 0, 1}] = 5;
  EXPECT_EQ(t.find(QpRef{3, 0, 2}), nullptr);
  EXPECT_EQ(t.find(QpRef{3, 1, 1}), nullptr);
  EXPECT_EQ(t.find(QpRef{4, 0, 1}), nullptr);
  EXPECT_EQ(t.size(), 1u);
}

TEST(QpTable, InOrderListsPeSlotQpOrder) {
  QpTable<int> t;
  for (const QpRef& q : many_qps()) t[q] = q.pe * 1000 + (q.slot + 1) * 100 + q.qp;
  const auto listed = t.in_order();
  ASSERT_EQ(listed.size(), t.size());
  for (size_t i = 0; i < listed.size(); ++i) {
    const QpRef& q = listed[i].first;
    EXPECT_EQ(*listed[i].second, q.pe * 1000 + (q.slot + 1) * 100 + q.qp);
    if (i) {
      const QpRef& p = listed[i - 1].first;
      EXPECT_TRUE(p.pe < q.pe || (p.pe == q.pe && (p.slot < q.slot || (p.slot == q.slot && p.qp < q.qp))));
    }
  }
}

TEST(QpTable, ACopyOwnsItsEntries) {
  QpTable<int> t;
  for (const QpRef& q : many_qps()) t[q] = 1;
  QpTable<int> c = t;
  c[{0, 0, 0}] = 2;
  c[{99, 0, 0}] = 3;
  EXPECT_EQ(*t.find(QpRef{0, 0, 0}), 1);
  EXPECT_EQ(t.find(QpRef{99, 0, 0}), nullptr);
  EXPECT_NE(c.find(QpRef{0, 0, 0}), t.find(QpRef{0, 0, 0}));
  EXPECT_EQ(c.size(), t.size() + 1);
}

// The write history keeps a WQE's QP as its table key (write_history.h): the key must give the
// QpRef back at the widths' edges (slot -1 is "none"; 24 bits of PE, 20 of slot and of QP).
TEST(QpTable, TheKeyGivesTheQpBack) {
  const std::vector<QpRef> edges = {
      {0, -1, 0}, {4095, 4094, 0}, {7, 0, 3}, {(1 << 24) - 1, (1 << 20) - 2, (1 << 20) - 1}};
  for (const QpRef& q : edges) {
    const QpRef back = qp_of_table_key(qp_table_key(q));
    EXPECT_EQ(back.pe, q.pe);
    EXPECT_EQ(back.slot, q.slot);
    EXPECT_EQ(back.qp, q.qp);
    EXPECT_EQ(qp_table_key(q), QpTable<int>::pack(q));
  }
  for (const QpRef& q : many_qps()) {
    const QpRef back = qp_of_table_key(qp_table_key(q));
    EXPECT_TRUE(back.pe == q.pe && back.slot == q.slot && back.qp == q.qp);
  }
}
