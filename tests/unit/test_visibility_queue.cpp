// The visibility queue: writes land in time order however often observers settle it, a DMA
// reads its source as units land, stores of zeros hand host pages back, and the earliest pending
// write to a range is known (what a core asleep on that range waits for).
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "models/memory/memory_watch.h"
#include "models/memory/sparse_region.h"
#include "models/memory/visibility_queue.h"

using namespace symsim;

namespace {

uint64_t word_at(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Writes A (t=10) and B (t=30) through one lane, C (t=20) on its own, all to one word.
uint64_t final_word(const std::vector<Ps>& settles) {
  VisibilityQueue q;
  const VisibilityQueue::Lane lane = q.make_lane();
  uint8_t word[8] = {};
  q.schedule_value(10, word, 1, 8, lane);
  q.schedule_value(30, word, 3, 8, lane);
  q.schedule_value(20, word, 2, 8);
  for (Ps t : settles) q.settle(t);
  return word_at(word);
}

size_t resident_pages(const uint8_t* p, uint64_t bytes) {
  std::vector<unsigned char> v(bytes / SparseRegion::kHostPageBytes);
  EXPECT_EQ(mincore(const_cast<uint8_t*>(p), bytes, v.data()), 0);
  size_t n = 0;
  for (unsigned char c : v) n += c & 1u;
  return n;
}

}  // namespace

TEST(VisibilityQueue, OverlappingWritesLandInTimeOrderWhateverTheSettleSteps) {
  EXPECT_EQ(final_word({40}), 3u);
  EXPECT_EQ(final_word({25, 40}), 3u);
  EXPECT_EQ(final_word({10, 20, 30}), 3u);
  EXPECT_EQ(final_word({15}), 1u);
  EXPECT_EQ(final_word({20}), 2u);
}

TEST(VisibilityQueue, UnitsOfTwoWritesInterleaveByTime) {
  // Two 1 KiB writes in 512 B units to the same bytes: X at 0 and 20, Y at 10 and 30.
  VisibilityQueue q;
  std::vector<uint8_t> dst(1024, 0), x(1024, 0xAA), y(1024, 0xBB);
  q.schedule(0, 20, 512, dst.data(), x.data(), 1024);
  q.schedule(10, 20, 512, dst.data(), y.data(), 1024);
  q.settle(100);
  EXPECT_EQ(dst[0], 0xBB);    // Y's first unit (10) after X's (0)
  EXPECT_EQ(dst[600], 0xBB);  // Y's second unit (30) after X's (20)
}

// Writes due at the same picosecond apply in the order they were scheduled (the lower write
// number first), whatever lane each is in, however the queue is settled and whether a write
// was forced meanwhile: the order is a property of the writes, not of when keys were filed.
namespace {
uint64_t same_time_word(const std::vector<Ps>& settles, bool force_first) {
  VisibilityQueue q;
  const VisibilityQueue::Lane a = q.make_lane(), b = q.make_lane();
  uint8_t word[8] = {}, other[8] = {};
  const auto first = q.schedule_value(5, other, 9, 8, a);  // keys lane a at 5
  q.schedule_value(10, word, 1, 8, a);                      // write 1, behind it in lane a
  q.schedule_value(10, word, 2, 8);                         // write 2, on its own
  q.schedule_value(10, word, 3, 8, b);                      // write 3, lane b
  if (force_first) q.force(first);
  for (Ps t : settles) q.settle(t);
  return word_at(word);
}
}  // namespace

TEST(VisibilityQueue, SameTimeWritesApplyInTheOrderTheyWereScheduled) {
  for (const bool force_first : {false, true}) {
    EXPECT_EQ(same_time_word({10}, force_first), 3u);
    EXPECT_EQ(same_time_word({7, 10}, force_first), 3u);  // lane a re-keyed in between
    EXPECT_EQ(same_time_word({5, 9, 10}, force_first), 3u);
  }
  // Units of two multi-unit writes due at the same times: the older write's unit goes first
  // each time, though the younger one's key was filed before the older one was re-keyed.
  VisibilityQueue q;
  std::vector<uint8_t> dst(1024, 0), x(1024, 0xAA), y(1024, 0xBB);
  q.schedule(0, 20, 512, dst.data(), x.data(), 1024);   // units at 0 and 20
  q.schedule(20, 0, 512, dst.data() + 512, y.data(), 512);  // one unit at 20, same bytes as x's second
  q.settle(10);
  q.settle(30);
  EXPECT_EQ(dst[0], 0xAA);
  EXPECT_EQ(dst[600], 0xBB);  // x's unit at 20 (older write) first, then y's
}

TEST(VisibilityQueue, ADmaReadsItsSourceWhenEachUnitLands) {
  VisibilityQueue q;
  std::vector<uint8_t> src(1024, 1), dst(1024, 0), snap_dst(1024, 0);
  q.schedule_dma(100, 50, 512, dst.data(), src.data(), 1024);
  q.schedule(100, 50, 512, snap_dst.data(), src.data(), 1024);  // a copy taken now
  q.settle(100);
  std::memset(src.data(), 2, src.size());  // rewritten while the second unit is on its way
  q.settle(200);
  EXPECT_EQ(dst[0], 1);
  EXPECT_EQ(dst[1000], 2);
  EXPECT_EQ(snap_dst[1000], 1);
}

TEST(VisibilityQueue, ClearingWholePagesHandsThemBackAndTheyReadAsZero) {
  const uint64_t page = SparseRegion::kHostPageBytes;
  SparseRegion heap(64 * page, true, "test.heap");
  uint8_t* p = heap.base();
  std::memset(p, 0x5A, 8 * page);
  ASSERT_EQ(resident_pages(p, 8 * page), 8u);
  VisibilityQueue q;
  const std::vector<uint8_t> zeros(8 * page - 100, 0);
  // From byte 100: the first page is cleared only in part, so it stays; the rest are dropped.
  q.schedule(10, 0, 0, p + 100, zeros.data(), zeros.size());
  q.settle(10);
  EXPECT_EQ(resident_pages(p, 8 * page), 1u);
  EXPECT_EQ(p[99], 0x5A);
  for (uint64_t i = 100; i < 8 * page; i += 512) EXPECT_EQ(p[i], 0) << i;
  // Clearing the rest of that page drops it too.
  q.schedule(20, 0, 0, p + 0, zeros.data(), 100);
  q.settle(20);
  EXPECT_EQ(word_at(p), 0u);
}

TEST(VisibilityQueue, KnowsTheFirstPendingUnitThatTouchesARange) {
  MemoryWatch watch;
  VisibilityQueue q;
  q.set_watch(&watch);
  std::vector<uint8_t> src(2048, 7), dst(2048, 0);
  q.schedule_dma(100, 10, 512, dst.data(), src.data(), 2048);  // units at 100, 110, 120, 130
  EXPECT_EQ(q.earliest_write_ps(dst.data() + 1600, dst.data() + 1608), 130u);
  EXPECT_EQ(q.earliest_write_ps(dst.data(), dst.data() + 8), 100u);
  q.settle(115);  // two units landed
  EXPECT_EQ(q.earliest_write_ps(dst.data(), dst.data() + 8), MemoryWatch::kNever);
  EXPECT_EQ(q.earliest_write_ps(dst.data() + 1100, dst.data() + 1108), 120u);
  q.settle(200);
  EXPECT_EQ(q.earliest_write_ps(dst.data() + 1600, dst.data() + 1608), MemoryWatch::kNever);
}

// Pending writes are filed by 64 KiB chunk: the writes that share a chunk with the range asked about but none of its
// bytes do not count, one that spans two chunks is found from either, and one that has landed leaves its chunk's others.
TEST(VisibilityQueue, KnowsThePendingWritesOfARangeAmongTheOthersOfItsChunk) {
  MemoryWatch watch;
  VisibilityQueue q;
  q.set_watch(&watch);
  constexpr uint64_t kChunk = 64 * 1024;
  std::vector<uint8_t> mem(4 * kChunk, 0), src(512, 7);
  uint8_t* base = mem.data() + (kChunk - reinterpret_cast<uintptr_t>(mem.data()) % kChunk);  // a chunk's first byte
  q.schedule(100, 0, 0, base, src.data(), 512);                // chunk 0: [0, 512)
  q.schedule(200, 0, 0, base + 1024, src.data(), 512);         // chunk 0: [1024, 1536)
  q.schedule(300, 0, 0, base + kChunk - 256, src.data(), 512);  // chunks 0 and 1
  EXPECT_EQ(q.earliest_write_ps(base + 600, base + 608), MemoryWatch::kNever);  // between the first two
  EXPECT_EQ(q.earliest_write_ps(base + 1024, base + 1032), 200u);
  EXPECT_EQ(q.earliest_write_ps(base, base + 2048), 100u);
  EXPECT_EQ(q.earliest_write_ps(base + kChunk - 8, base + kChunk), 300u);           // from chunk 0
  EXPECT_EQ(q.earliest_write_ps(base + kChunk + 8, base + kChunk + 16), 300u);      // from chunk 1
  q.settle(150);  // the first has landed
  EXPECT_EQ(q.earliest_write_ps(base, base + 2048), 200u);
  q.settle(300);
  EXPECT_EQ(q.earliest_write_ps(base, base + 2 * kChunk), MemoryWatch::kNever);
}

// A put's source rewritten by a write made visible before its time (a core's WaitFlag on a
// slow MTE3 copy): units the put reads before the write's time keep the old bytes.
TEST(VisibilityQueue, AForcedWriteNeverReachesStreamUnitsReadBeforeItsTime) {
  VisibilityQueue q;
  std::vector<uint8_t> src(2048, 0x11), dst(2048, 0), fresh(2048, 0x22);
  q.schedule_stream(100, 100, 512, dst.data(), src.data(), 2048);  // units land (and read) at 100..400
  const auto copy = q.schedule_dma(250, 0, 0, src.data(), fresh.data(), 2048);
  q.force(copy);  // visible now (time 0) instead of at 250
  EXPECT_EQ(src[0], 0x22);
  q.settle(1000);
  EXPECT_EQ(dst[0], 0x11);
  EXPECT_EQ(dst[700], 0x11);
  EXPECT_EQ(dst[1100], 0x22);
  EXPECT_EQ(dst[2000], 0x22);
}

// write_now is schedule + force without the entry: a pending stream and one scheduled after it
// read the old bytes for their units before the write's time, and due writes land first.
TEST(VisibilityQueue, AWriteMadeNowActsAsAForcedWrite) {
  VisibilityQueue q;
  std::vector<uint8_t> src(2048, 0x11), dst(2048, 0), later_dst(1024, 0), fresh(2048, 0x22);
  q.schedule_stream(100, 100, 512, dst.data(), src.data(), 2048);  // units land (and read) at 100..400
  q.schedule_value(0, src.data() + 8, 0x33, 1);                    // due now: lands before the write
  q.write_now(src.data(), fresh.data(), 2048, 250);                 // visible now (time 0) instead of at 250
  EXPECT_EQ(src[0], 0x22);
  EXPECT_EQ(src[8], 0x22);
  q.schedule_stream(200, 100, 512, later_dst.data(), src.data(), 1024);  // units at 200 (before) and 300
  q.settle(1000);
  EXPECT_EQ(dst[0], 0x11);
  EXPECT_EQ(dst[700], 0x11);
  EXPECT_EQ(dst[1100], 0x22);
  EXPECT_EQ(dst[2000], 0x22);
  EXPECT_EQ(later_dst[0], 0x11);
  EXPECT_EQ(later_dst[600], 0x22);
  EXPECT_EQ(q.horizon_ps(), 400u);
}

TEST(VisibilityQueue, BeforeWriteHoldsOnlyUnitsReadBeforeTheWrite) {
  VisibilityQueue q;
  std::vector<uint8_t> src(2048, 0x11), dst(2048, 0), other(512, 0x33), other_dst(512, 0);
  q.schedule_stream(100, 100, 512, dst.data(), src.data(), 2048);
  q.schedule_stream(150, 0, 512, other_dst.data(), other.data(), 512);  // reads other bytes
  q.before_write(src.data() + 1024, 512, 350);  // unit 2 (lands at 300) overlaps and comes first
  std::memset(src.data(), 0x22, src.size());
  std::memset(other.data(), 0x44, other.size());
  q.settle(1000);
  EXPECT_EQ(dst[1100], 0x11);  // unit 2: held
  EXPECT_EQ(dst[1600], 0x22);  // unit 3 lands after the write
  EXPECT_EQ(other_dst[0], 0x44);  // nothing held for a stream the write does not touch
}

TEST(VisibilityQueue, AForcedWriteAfterEveryUnitLandedChangesNothingSent) {
  VisibilityQueue q;
  std::vector<uint8_t> src(1024, 0x11), dst(1024, 0), fresh(1024, 0x22);
  q.schedule_stream(100, 10, 512, dst.data(), src.data(), 1024);  // done at 110
  const auto copy = q.schedule_dma(5000, 0, 0, src.data(), fresh.data(), 1024);
  q.force(copy);
  q.settle(10000);
  EXPECT_EQ(dst[0], 0x11);
  EXPECT_EQ(dst[1000], 0x11);
}

// A READ's source rewritten by a write made visible before its time: the read, due earlier,
// takes the bytes as they were.
TEST(VisibilityQueue, AReadDueBeforeAnEarlyWriteTakesTheOldBytes) {
  VisibilityQueue q;
  std::vector<uint8_t> src(1024, 0x11), dst(1024, 0), late_dst(1024, 0), fresh(512, 0x22);
  const auto copy = q.schedule_dma(300, 0, 0, src.data() + 256, fresh.data(), 512);
  q.force(copy);  // visible now (time 0) instead of at 300
  q.schedule_read(200, 400, 0, 0, dst.data(), src.data(), 1024);       // read at 200: before the write
  q.schedule_read(300, 500, 0, 0, late_dst.data(), src.data(), 1024);  // read at 300: after
  q.settle(1000);
  EXPECT_EQ(dst[100], 0x11);
  EXPECT_EQ(dst[300], 0x11);
  EXPECT_EQ(late_dst[300], 0x22);
  EXPECT_EQ(late_dst[900], 0x11);
}

// Many lanes due at once (a settle that lands a round of every QP's writes takes the due keys
// out together, VisibilityHeap::take): writes still land in (time, write number) order. Writes
// of random times, ties included, go to a few shared words and DMA-read them into their own
// slots, so any change of order shows; the result is compared with the writes applied one by
// one in that order, for one settle at the end and for settles in many steps.
namespace {
struct RandomWrite {
  Ps t;
  bool dma;       // reads shared word `word` into its slot when it lands; else stores `value` there
  size_t word;
  uint64_t value;
  uint32_t lane;  // UINT32_MAX: on its own
};

std::vector<uint64_t> apply_in_order(const std::vector<RandomWrite>& writes, size_t words) {
  std::vector<size_t> order(writes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return writes[a].t < writes[b].t; });
  std::vector<uint64_t> mem(words + writes.size(), 0);
  for (const size_t i : order) {
    const RandomWrite& w = writes[i];
    if (w.dma) {
      mem[words + i] = mem[w.word];
    } else {
      mem[w.word] = w.value;
    }
  }
  return mem;
}

// A seeded linear congruential generator: the same writes every run.
struct Lcg {
  uint64_t state;
  uint64_t operator()(uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  }
};

// Schedules writes[i] on `q`: its slot is word `words + i` of `bytes`.
void schedule_write(VisibilityQueue& q, const std::vector<VisibilityQueue::Lane>& lane_of, uint8_t* bytes, size_t words,
                    const std::vector<RandomWrite>& writes, size_t i) {
  const RandomWrite& w = writes[i];
  const VisibilityQueue::Lane lane = w.lane == UINT32_MAX ? VisibilityQueue::kNoLane : lane_of[w.lane];
  if (w.dma) {
    q.schedule_dma(w.t, 0, 8, bytes + 8 * (words + i), bytes + 8 * w.word, 8, lane);
  } else {
    q.schedule_value(w.t, bytes + 8 * w.word, w.value, 8, lane);
  }
}

std::vector<uint64_t> run_queue(const std::vector<RandomWrite>& writes, size_t words, size_t lanes, Ps step) {
  VisibilityQueue q;
  std::vector<VisibilityQueue::Lane> lane_of;
  for (size_t l = 0; l < lanes; ++l) lane_of.push_back(q.make_lane());
  std::vector<uint64_t> mem(words + writes.size(), 0);
  auto* bytes = reinterpret_cast<uint8_t*>(mem.data());
  for (size_t i = 0; i < writes.size(); ++i) schedule_write(q, lane_of, bytes, words, writes, i);
  for (Ps t = 0; !q.empty(); t += step) q.settle(t);
  return mem;
}
}  // namespace

TEST(VisibilityQueue, ARoundOfManyLanesDueAtOnceLandsInOrder) {
  Lcg next{12345};
  constexpr size_t kWords = 3, kLanes = 40;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<RandomWrite> writes;
    std::vector<Ps> lane_t(kLanes, 0);
    for (int round = 0; round < 6; ++round) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        lane_t[l] += next(12);  // a lane's times do not go backwards; ties across lanes are common
        writes.push_back({lane_t[l], next(3) == 0, next(kWords), writes.size() + 1, l});
      }
      for (int k = 0; k < 4; ++k)  // some on their own, any time
        writes.push_back({next(40 * (round + 1)), next(2) == 0, next(kWords), writes.size() + 1, UINT32_MAX});
    }
    const std::vector<uint64_t> expect = apply_in_order(writes, kWords);
    for (const Ps step : {Ps{1000000}, Ps{7}, Ps{1}})
      EXPECT_EQ(run_queue(writes, kWords, kLanes, step), expect) << "trial " << trial << " step " << step;
  }
}

// Whole rounds due at once, as in put-heavy: every lane's oldest write is due at each settle and
// its next one is not, so the burst empties the heap and files the next keys back sorted; the
// next settle takes them as the sorted array's first keys (VisibilityHeap::sorted_due). Writes on
// their own, scheduled between settles, break the order now and then (the heap path then). The
// memory must be that of the writes applied one by one in (time, write number) order.
TEST(VisibilityQueue, WholeRoundsDueAtEachSettleLandInOrderFromASortedHeap) {
  Lcg next{777};
  constexpr size_t kWords = 3, kLanes = 24, kRounds = 8;
  constexpr Ps kRoundPs = 100;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<RandomWrite> writes;  // in the order scheduled
    for (size_t round = 0; round < kRounds; ++round)
      for (uint32_t l = 0; l < kLanes; ++l)  // times within the round; ties across lanes are common
        writes.push_back({round * kRoundPs + next(20), next(3) == 0, next(kWords), writes.size() + 1, l});
    VisibilityQueue q;
    std::vector<VisibilityQueue::Lane> lane_of;
    for (size_t l = 0; l < kLanes; ++l) lane_of.push_back(q.make_lane());
    const size_t own = kRounds * 2;  // room for the writes on their own
    std::vector<uint64_t> mem(kWords + writes.size() + own, 0);
    auto* bytes = reinterpret_cast<uint8_t*>(mem.data());
    const auto schedule = [&](size_t i) { schedule_write(q, lane_of, bytes, kWords, writes, i); };
    for (size_t i = 0; i < writes.size(); ++i) schedule(i);
    for (size_t round = 0; round < kRounds; ++round) {
      if (next(3) == 0) {  // one on its own, due within this round: the heap is no longer sorted
        writes.push_back({round * kRoundPs + next(20), next(2) == 0, next(kWords), writes.size() + 1, UINT32_MAX});
        schedule(writes.size() - 1);
      }
      q.settle(round * kRoundPs + 50);
    }
    q.settle(kRounds * kRoundPs);
    mem.resize(kWords + writes.size());
    EXPECT_EQ(mem, apply_in_order(writes, kWords)) << "trial " << trial;
  }
}

// Early writes pending at once, few (walked in their FIFO) or many (filed by chunk): a stream
// scheduled before them and one scheduled after both read, for each unit, the bytes as they are
// at the unit's time: those of the last write due by then, whichever way the writes are found.
namespace {
std::vector<uint8_t> expected_at(size_t writes, Ps unit_ps) {
  std::vector<uint8_t> bytes(2048, 0x11);
  for (size_t k = 0; k < writes; ++k)
    if (1000 + 100 * k <= unit_ps) std::fill_n(bytes.begin() + 64 * k, 128, static_cast<uint8_t>(k + 1));
  return bytes;
}
}  // namespace

TEST(VisibilityQueue, StreamsReadWhatEachOfManyEarlyWritesReplaced) {
  for (const size_t writes : {size_t{3}, size_t{12}}) {
    VisibilityQueue q;
    std::vector<uint8_t> src(2048, 0x11), before_dst(2048, 0), after_dst(2048, 0);
    q.schedule_stream(900, 50, 64, before_dst.data(), src.data(), 2048);  // unit u lands (reads) at 900 + 50 u
    for (size_t k = 0; k < writes; ++k) {  // write k: bytes [64 k, 64 k + 128) at 1000 + 100 k, made now
      const std::vector<uint8_t> fresh(128, static_cast<uint8_t>(k + 1));
      q.write_now(src.data() + 64 * k, fresh.data(), 128, 1000 + 100 * k);
    }
    q.schedule_stream(900, 50, 64, after_dst.data(), src.data(), 2048);
    q.settle(100000);
    for (size_t u = 0; u < 32; ++u) {
      const std::vector<uint8_t> at = expected_at(writes, 900 + 50 * u);
      for (size_t b = 64 * u; b < 64 * (u + 1); ++b) {
        EXPECT_EQ(before_dst[b], at[b]) << writes << " writes, byte " << b;
        EXPECT_EQ(after_dst[b], at[b]) << writes << " writes, byte " << b;
      }
    }
  }
}

// MoE's early writes, the ones whose old bytes session 32 (s32-before) tried to skip: a token's
// MTE3 copy from UB into a GM staging buffer, forced at a WaitFlag while SystemC time is up to a
// quantum behind its time (leads of 512-2,048 ns). No stream reads the buffer when it is forced,
// yet readers that come afterwards still reach the bytes it replaced: a READ whose action was
// filed before the copy and is due before it, and a put of the buffer scheduled after the force
// (a core still behind in its own time) whose first units land before the copy's time. So
// "no pending reader overlaps the range" does not prove that the old bytes are dead.
TEST(VisibilityQueue, AForcedCopysOldBytesReachReadersFiledBeforeAndScheduledAfterIt) {
  constexpr Ps kNs = 1000;
  constexpr uint64_t kToken = 7168;
  VisibilityQueue q;
  std::vector<uint8_t> gm(kToken, 0x11), ub(kToken, 0x22), put_dst(kToken, 0), read_dst(kToken, 0),
      late_read_dst(kToken, 0);
  const auto read_at = [&](Ps t, std::vector<uint8_t>& dst) {  // an engine's READ: its action waits for the HBM port
    q.schedule_action(
        t, [&q, t, &dst, &gm](Ps) { q.schedule_read(t, t + 100 * kNs, 0, 0, dst.data(), gm.data(), gm.size()); },
        dst.data(), dst.size());
  };
  read_at(300 * kNs, read_dst);        // due before the copy
  read_at(700 * kNs, late_read_dst);   // due after it
  const auto copy = q.schedule_dma(600 * kNs, 0, 0, gm.data(), ub.data(), kToken);  // UB -> GM, visible at 600 ns
  q.force(copy);                       // the WaitFlag: visible now (time 0)
  std::memset(ub.data(), 0x33, ub.size());  // the core reuses its UB once it has waited
  EXPECT_EQ(gm[0], 0x22);
  // A put of the buffer scheduled now: 1 KiB units every 100 ns from 240 ns (the least lead of a stream).
  q.schedule_stream(240 * kNs, 100 * kNs, 1024, put_dst.data(), gm.data(), kToken);
  q.settle(10000 * kNs);
  for (uint64_t b = 0; b < kToken; b += 256) {
    EXPECT_EQ(read_dst[b], 0x11) << b;       // read at 300 ns: the bytes before the copy
    EXPECT_EQ(late_read_dst[b], 0x22) << b;  // read at 700 ns: the copy's
    EXPECT_EQ(put_dst[b], b < 4 * 1024 ? 0x11 : 0x22) << b;  // units at 240..540 ns old, 640 ns on new
  }
}

// Old bytes that are all zero (memory written for the first time) are kept as none: readers
// still get them, as zeros, and a single nonzero byte at the end keeps the bytes themselves.
TEST(VisibilityQueue, AForcedCopysOldZerosReachReadersAsZeros) {
  constexpr Ps kNs = 1000;
  constexpr uint64_t kToken = 7168;
  for (const bool last_byte_set : {false, true}) {
    VisibilityQueue q;
    std::vector<uint8_t> gm(kToken, 0), ub(kToken, 0x22), put_dst(kToken, 0x55), read_dst(kToken, 0x55);
    if (last_byte_set) gm.back() = 0x11;
    q.schedule_action(
        300 * kNs, [&](Ps) { q.schedule_read(300 * kNs, 400 * kNs, 0, 0, read_dst.data(), gm.data(), gm.size()); },
        read_dst.data(), read_dst.size());
    const auto copy = q.schedule_dma(600 * kNs, 0, 0, gm.data(), ub.data(), kToken);
    q.force(copy);
    EXPECT_EQ(gm[0], 0x22);
    EXPECT_EQ(gm.back(), 0x22);
    q.schedule_stream(240 * kNs, 100 * kNs, 1024, put_dst.data(), gm.data(), kToken);  // units at 240..840 ns
    q.settle(10000 * kNs);
    for (uint64_t b = 0; b < kToken; ++b) {
      const uint8_t old = last_byte_set && b == kToken - 1 ? 0x11 : 0;
      ASSERT_EQ(read_dst[b], old) << b << " " << last_byte_set;                          // read at 300 ns
      ASSERT_EQ(put_dst[b], b < 4 * 1024 ? old : uint8_t{0x22}) << b << " " << last_byte_set;  // 240..540 ns old
    }
  }
}
