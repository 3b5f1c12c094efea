// The write history's compact ring (sim/checkers/write_ring.h): 32-byte entries with times as
// offsets from a block's base and entries that do not fit kept whole must read back exactly
// what a plain ring of the newest kKept writes holds, and answer "who last wrote this" the same.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <utility>

#include "sim/checkers/write_ring.h"

using namespace symsim;

namespace {
using Entry = WriteRing::Entry;

bool same(const Entry& a, const Entry& b) {
  return a.kind == b.kind && a.opcode == b.opcode && a.begin == b.begin && a.end == b.end && a.t == b.t &&
         a.qp.pe == b.qp.pe && a.qp.slot == b.qp.slot && a.qp.qp == b.qp.qp && a.wqe == b.wqe && a.cqe == b.cqe &&
         a.cqe_ps == b.cqe_ps && a.pc == b.pc && a.core == b.core && a.pe == b.pe;
}

// A CQ per QP, 64 slots of 64 bytes, inside the addresses the writes land in (below).
std::pair<uint64_t, uint64_t> cqe_range(const Entry& e) {
  const uint64_t cq = 0x10000000u + (uint64_t(e.qp.pe & 7) * 8 + uint64_t(e.qp.qp & 7)) * 4096;
  const uint64_t at = cq + uint64_t{e.cqe % 64} * 64;
  return {at, at + 64};
}

// The newest write of [a, a + bytes) by t over the plain ring, as write_history.cpp searched it.
bool plain_writer(const std::deque<Entry>& ring, uint64_t a, uint64_t bytes, Ps t, Entry& found, bool& cqe) {
  const auto overlaps = [&](uint64_t begin, uint64_t end, Ps written) {
    return begin < a + bytes && a < end && written <= t;
  };
  for (auto it = ring.rbegin(); it != ring.rend(); ++it) {
    if (it->kind == Entry::kWqe && it->cqe_ps != 0) {
      const auto [begin, end] = cqe_range(*it);
      if (overlaps(begin, end, it->cqe_ps)) {
        found = *it;
        cqe = true;
        return true;
      }
    }
    if (overlaps(it->begin, it->end, it->t)) {
      found = *it;
      cqe = false;
      return true;
    }
  }
  return false;
}

void expect_same(const WriteRing& ring, const std::deque<Entry>& plain, std::mt19937_64& rng, Ps now) {
  ASSERT_EQ(ring.kept(), plain.size());
  for (size_t i = 0; i < plain.size(); ++i) ASSERT_TRUE(same(ring.newest(i), plain[plain.size() - 1 - i])) << "entry " << i;
  for (int q = 0; q < 40; ++q) {
    const uint64_t a = 0x10000000u + rng() % 0x50000;
    const uint64_t bytes = 1 + rng() % 16;
    const Ps t = now - std::min<Ps>(now, rng() % 200'000'000);
    Entry got, want;
    bool got_cqe = false, want_cqe = false;
    const bool found = ring.newest_writer(a, bytes, t, cqe_range, got, got_cqe);
    ASSERT_EQ(found, plain_writer(plain, a, bytes, t, want, want_cqe)) << "query " << q;
    if (found) {
      ASSERT_TRUE(same(got, want)) << "query " << q;
      ASSERT_EQ(got_cqe, want_cqe) << "query " << q;
    }
  }
}
}  // namespace

TEST(WriteRing, ReadsBackWhatAPlainRingHolds) {
  WriteRing ring;
  std::deque<Entry> plain;
  std::mt19937_64 rng(16);
  Ps now = Ps{1} << 40;
  for (int step = 0; step < 300000; ++step) {
    // One push in 32 at or past a field's edge (1-8 below): most past it are kept whole.
    const unsigned odd = static_cast<unsigned>(rng() % 256);
    if (rng() % 20000 == 0) now += Ps{5'000'000'000};  // 5 ms idle: the rest of the block past its reach
    now += rng() % 4000;
    // Landings out of push order: up to 50 us after now, or (rarely) long before it.
    Ps t = now + rng() % 50'000'000;
    if (odd == 1) t = 0;  // a failed WQE's data time
    if (odd == 2) t = now - std::min<Ps>(now, Ps{3'000'000'000});
    uint64_t begin = 0x10000000u + rng() % 0x50000;
    if (odd == 3) begin |= uint64_t{1} << 50;  // past 48 bits
    Entry e;
    if (rng() % 5 == 0) {
      e.kind = Entry::kCopy;
      const uint64_t bytes = odd == 4 ? (uint64_t{5} << 30) : 1 + rng() % 512;  // 5 GiB: past 32 bits
      e.begin = begin;
      e.end = begin + bytes;
      e.t = t;
      e.pc = reinterpret_cast<const void*>(0x400000u + rng() % 4096);
      e.core = static_cast<int>(rng() % 48);
      e.pe = static_cast<int>(rng() % 16);
      ring.push_copy(e.begin, bytes, e.t, e.pc, e.core, e.pe);
    } else {
      e.kind = Entry::kWqe;
      e.opcode = static_cast<uint8_t>(rng() % 8);
      const bool data = rng() % 8 != 0;
      const uint32_t bytes = data ? static_cast<uint32_t>(1 + rng() % 4096) : 0;
      e.begin = data ? begin : 0;
      e.end = e.begin + bytes;
      e.t = t;
      e.qp = QpRef{static_cast<int>(rng() % 16), static_cast<int>(rng() % 17) - 1, static_cast<int>(rng() % 4)};
      if (odd == 5) e.qp.pe = 4095 + static_cast<int>(rng() % 3);  // past 12 bits of PE
      if (odd == 6) e.qp.slot = 4094 + static_cast<int>(rng() % 3);
      if (odd == 7) e.qp.qp = 255 + static_cast<int>(rng() % 3);
      e.wqe = static_cast<uint32_t>(rng());
      e.cqe = static_cast<uint32_t>(rng());
      // Every data-less WQE pushed has a CQE (write_history.h pushes no other).
      e.cqe_ps = !data || rng() % 4 != 0 ? t + rng() % 3'000'000 : 0;
      if (odd == 8) e.cqe_ps = t + Ps{3'000'000'000};  // a CQE past the block's reach
      WqeRecord r;  // what the history reads of it (write_history.h)
      r.qp = e.qp;
      r.opcode = e.opcode;
      r.wqe_index = e.wqe;
      r.cqe_index = e.cqe;
      r.cqe_ps = e.cqe_ps;
      r.remote_write_ps = e.t;
      r.remote_va = static_cast<uint64_t>(rng());  // not read: begin is given
      ring.push_wqe(r, e.begin, bytes);
    }
    plain.push_back(e);
    if (plain.size() > WriteRing::kKept) plain.pop_front();
    ASSERT_EQ(ring.added(), static_cast<uint64_t>(step) + 1);
    ASSERT_TRUE(same(ring.newest(0), e)) << "step " << step;
    if (step % 9973 == 0) expect_same(ring, plain, rng, now);
  }
  expect_same(ring, plain, rng, now);
}

// Entries kept whole, four rings of them: the side map drops those no longer kept (past two rings)
// and still reads back every kept one.
TEST(WriteRing, EveryEntryKeptWholeStillReadsBack) {
  WriteRing ring;
  std::deque<Entry> plain;
  for (uint64_t n = 0; n < 4 * WriteRing::kKept + 5; ++n) {
    Entry e;
    e.kind = Entry::kCopy;
    e.begin = (uint64_t{1} << 60) + n;  // never fits
    e.end = e.begin + 8;
    e.t = n * 1000;
    e.core = static_cast<int>(n % 7);
    e.pe = 1;
    ring.push_copy(e.begin, 8, e.t, nullptr, e.core, e.pe);
    plain.push_back(e);
    if (plain.size() > WriteRing::kKept) plain.pop_front();
  }
  ASSERT_EQ(ring.kept(), plain.size());
  for (size_t i = 0; i < plain.size(); ++i) ASSERT_TRUE(same(ring.newest(i), plain[plain.size() - 1 - i])) << i;
}
