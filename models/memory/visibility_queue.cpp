#include "models/memory/visibility_queue.h"
#include "models/core/sim_now.h"

#include "models/memory/sparse_region.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace symsim {

namespace {
constexpr size_t kKeptCopyBytes = 512;
}  // namespace

// Inline: one call per write, from enqueue only.
inline VisibilityQueue::Handle VisibilityQueue::allocate() {
  if (!m_free.empty()) {
    const Handle h = m_free.back();
    m_free.pop_back();
    return h;
  }
  m_entries.emplace_back();
  m_done.emplace_back();
  return static_cast<Handle>(m_entries.size() - 1);
}

// Inline: release's only call, once a put's data has landed (out of line it cost a call a WQE).
inline void VisibilityQueue::unindex_stream(Handle h) {
  Entry& e = m_entries[h];
  m_streams.erase(e.stream_node);
  e.stream_node = ChunkIndex::kNil;
}

// Inline: called from finish and settle_burst only.
[[gnu::always_inline]] inline void VisibilityQueue::release(Handle h) {
  Entry& e = m_entries[h];
  if (e.watch) {
    if (e.watched || !e.dst) {
      unwatch_entry(h);
    } else {
      e.watch = false;  // not filed anywhere: nothing to take back
    }
  }
  if (e.stream_node != ChunkIndex::kNil) unindex_stream(h);
  e.live = false;
  ++e.generation;
  if (e.has_done) {
    m_done[h] = nullptr;
    e.has_done = false;
  }
  // A large copy's bytes go back to the allocator: a pooled entry would otherwise keep the
  // largest payload it ever held, for as many entries as were ever in flight at once.
  if (e.data.capacity() > kKeptCopyBytes) std::vector<uint8_t>().swap(e.data);
  m_free.push_back(h);
  --m_live;
}

VisibilityQueue::Lane VisibilityQueue::make_lane(bool watched) {
  m_lanes.emplace_back();
  m_lanes.back().watched = watched;
  return static_cast<Lane>(m_lanes.size() - 1);
}

VisibilityQueue::Handle VisibilityQueue::schedule(Ps first_visible_ps, Ps unit_interval_ps,
                                                  uint32_t unit_bytes, uint8_t* dst,
                                                  const uint8_t* src, uint64_t len, DoneFn done, Lane lane) {
  // A large store of zeros (a kernel clearing a buffer) keeps no copy, and may hand whole
  // pages back when it lands (SparseRegion::store_zeros).
  const bool zeros = len >= SparseRegion::kHostPageBytes && SparseRegion::is_zero(src, len);
  const Handle h = enqueue(first_visible_ps, unit_interval_ps, unit_bytes, dst, len, lane);
  Entry& e = m_entries[h];
  if (done) {
    m_done[h] = std::move(done);
    e.has_done = true;
  }
  e.zeros = zeros;
  if (zeros) {
    e.data.clear();
  } else {
    e.data.assign(src, src + len);
  }
  return h;
}

VisibilityQueue::Handle VisibilityQueue::schedule_dma(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes,
                                                      uint8_t* dst, const uint8_t* src, uint64_t len, Lane lane) {
  const Handle h = enqueue(first_visible_ps, unit_interval_ps, unit_bytes, dst, len, lane);
  m_entries[h].src = src;
  return h;
}

// Defined before enqueue so that it inlines there: with no reader asleep and no index kept (nearly
// every write of a run), a watched write costs a flag and a test.
inline void VisibilityQueue::watch_entry(Handle h, const uint8_t* begin, uint64_t len) {
  Entry& e = m_entries[h];
  e.watch = true;
  if (m_indexing) index_entry(h);
  m_watch->written(begin, len, e.next_ps, e.dst ? e.unit_bytes : 0, e.unit_interval_ps);
}

VisibilityQueue::Handle VisibilityQueue::enqueue(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes,
                                                 uint8_t* dst, uint64_t len, Lane lane) {
  const Handle h = allocate();
  Entry& e = m_entries[h];
  e.next_ps = first_visible_ps;
  e.unit_interval_ps = unit_interval_ps;
  e.unit_bytes = unit_bytes == 0 ? static_cast<uint32_t>(std::max<uint64_t>(len, 1)) : unit_bytes;
  e.dst = dst;
  e.len = len;
  e.applied = 0;
  e.live = true;
  e.zeros = false;
  e.watch = false;
  e.watched = false;
  e.src = nullptr;
  e.held_from = e.held_to = 0;
  e.stream_node = ChunkIndex::kNil;  // has_done is false: released entries clear it
  ++m_live;
  // The last unit's time; most writes are one unit (no division).
  const Ps last = len > e.unit_bytes ? first_visible_ps + (len - 1) / e.unit_bytes * unit_interval_ps : first_visible_ps;
  m_horizon_ps = std::max(m_horizon_ps, last);
  e.seq = m_writes++;
  if (m_watch && dst && len > 0 && (lane == kNoLane || m_lanes[lane].watched)) watch_entry(h, dst, len);
  if (lane != kNoLane && first_visible_ps >= m_lanes[lane].last_ps) {
    e.lane = lane;
    LaneState& l = m_lanes[lane];
    l.writes.emplace_back(h, e.generation);
    l.last_ps = last;
    if (!m_heap.contains(lane_id(lane))) m_heap.push({first_visible_ps, e.seq, lane_id(lane), h});
  } else {
    e.lane = kNoLane;
    m_heap.push({first_visible_ps, e.seq, write_id(h), h});
  }
  return h;
}

inline VisibilityQueue::Handle VisibilityQueue::pop_lane(Lane lane) {
  LaneState& l = m_lanes[lane];
  l.writes.pop_front();
  while (!l.writes.empty()) {
    const auto [h, gen] = l.writes.front();
    const Entry& e = m_entries[h];
    if (e.live && e.generation == gen) return h;
    l.writes.pop_front();  // forced by its writer already
  }
  return kNoHandle;
}

inline void VisibilityQueue::rekey_lane(Lane lane) {
  const Handle h = pop_lane(lane);
  if (h == kNoHandle) {
    m_heap.erase(lane_id(lane));
  } else {
    m_heap.raise(lane_id(lane), m_entries[h].next_ps, m_entries[h].seq, h);
  }
}

// Inline (always: GCC would keep it out of line for its three callers, the landing's own path).
[[gnu::always_inline]] inline void VisibilityQueue::finish(Handle h) {
  Entry& e = m_entries[h];
  if (!e.has_done) {  // most writes: nothing to call
    release(h);
    return;
  }
  const Ps visible = e.next_ps;
  DoneFn done = std::move(m_done[h]);
  release(h);
  done(visible);
}

// apply_until and apply_before are defined before their callers so that they inline.
inline bool VisibilityQueue::apply_until(Entry& e, Ps until_ps) {
  while (e.applied < e.len && e.next_ps <= until_ps) {
    const uint64_t n = std::min<uint64_t>(e.unit_bytes, e.len - e.applied);
    const uint8_t* from = !e.src                 ? e.data.data() + e.applied
                          : e.applied < e.held_to ? e.data.data() + (e.applied - e.held_from)  // read early
                                                  : e.src + e.applied;
    // A large store of zeros (a kernel clearing a buffer) may hand whole pages back.
    if (e.zeros || (e.src && n >= SparseRegion::kHostPageBytes && SparseRegion::is_zero(from, n))) {
      SparseRegion::store_zeros(e.dst + e.applied, n);
    } else {
      std::memcpy(e.dst + e.applied, from, n);
    }
    e.applied += n;
    if (e.applied < e.len) e.next_ps += e.unit_interval_ps;
  }
  return e.applied >= e.len;
}

inline bool VisibilityQueue::apply_before(Entry& e, Ps now_ps, const VisibilityHeap::Key* next) {
  // Units apply in (time, write number) order even where writes overlap: this write goes no
  // further than the next key. A unit at the next key's time goes first if its write is older.
  Ps until = now_ps;
  if (next && next->t <= until) until = e.seq < next->seq ? next->t : next->t - 1;
  return apply_until(e, until);
}

[[gnu::always_inline]] inline void VisibilityQueue::settle_lane(Lane lane, Handle h, Ps now_ps) {
  Entry& e = m_entries[h];
  // The top key's next unit always applies (it is the least key and due): only a write with more
  // than one unit left needs the next key, to know where to stop.
  const VisibilityHeap::Key* next = e.len - e.applied > e.unit_bytes ? m_heap.second() : nullptr;
  if (!apply_before(e, now_ps, next)) {
    m_heap.raise(lane_id(lane), e.next_ps, e.seq, h);
    return;
  }
  rekey_lane(lane);
  finish(h);
}

[[gnu::always_inline]] inline void VisibilityQueue::settle_write(Handle h, Ps now_ps) {
  Entry& e = m_entries[h];
  const VisibilityHeap::Key* next = e.len - e.applied > e.unit_bytes ? m_heap.second() : nullptr;  // as above
  if (!apply_before(e, now_ps, next)) {
    m_heap.raise(write_id(h), e.next_ps, e.seq, h);
    return;
  }
  m_heap.erase(write_id(h));
  finish(h);
}

uint8_t* VisibilityQueue::schedule_in_place(Ps visible_ps, uint8_t* dst, uint32_t len, Lane lane) {
  // schedule(visible_ps, 0, len, dst, bytes, len, nullptr, lane) for len < a page: no zeros
  // test, no done; the bytes go where schedule would have copied them.
  const Handle h = enqueue(visible_ps, 0, len, dst, len, lane);
  Entry& e = m_entries[h];
  e.zeros = false;
  e.data.resize(len);
  return e.data.data();
}

VisibilityQueue::Handle VisibilityQueue::schedule_value(Ps visible_ps, uint8_t* dst, uint64_t value,
                                                        uint32_t len, Lane lane) {
  uint8_t bytes[8];
  std::memcpy(bytes, &value, sizeof(bytes));
  return schedule(visible_ps, 0, len, dst, bytes, len, nullptr, lane);
}

VisibilityQueue::Handle VisibilityQueue::schedule_action(Ps t_ps, DoneFn action, uint8_t* touches,
                                                         uint64_t touch_len) {
  const Handle h = schedule(t_ps, 0, 0, nullptr, nullptr, 0, std::move(action));
  if (m_watch && touches && touch_len > 0) {
    m_action_touch[h] = {touches, touch_len};
    watch_entry(h, touches, touch_len);
  }
  return h;
}

namespace {
// m_by_chunk's unit, as the streams' index.
constexpr uint64_t kWatchChunkBytes = 64 * 1024;

// The chunks that [begin, begin + len) covers.
std::pair<uint64_t, uint64_t> chunks_of(const uint8_t* begin, uint64_t len) {
  return {reinterpret_cast<uintptr_t>(begin) / kWatchChunkBytes,
          (reinterpret_cast<uintptr_t>(begin) + len - 1) / kWatchChunkBytes};
}
}  // namespace

std::pair<const uint8_t*, uint64_t> VisibilityQueue::watched_range(Handle h) const {
  const Entry& e = m_entries[h];
  if (e.dst) return {e.dst, e.len};
  const auto t = m_action_touch.find(h);
  if (t == m_action_touch.end()) return {nullptr, 0};
  return t->second;
}

void VisibilityQueue::index_entry(Handle h) {
  const auto [begin, len] = watched_range(h);
  if (!begin) return;
  const auto [first, last] = chunks_of(begin, len);
  m_entries[h].watched = true;
  m_entries[h].watch_node = m_by_chunk.insert(h, first, last);
}

void VisibilityQueue::unwatch_entry(Handle h) {
  Entry& e = m_entries[h];
  e.watch = false;
  if (e.watched) {
    e.watched = false;
    m_by_chunk.erase(e.watch_node);
  }
  if (!e.dst) m_action_touch.erase(h);
}

Ps VisibilityQueue::earliest_write_ps(const uint8_t* begin, const uint8_t* end) {
  if (!m_indexing) {  // the first reader to sleep: file what is pending now, then keep it filed
    m_indexing = true;
    for (Handle h = 0; h < m_entries.size(); ++h)
      if (m_entries[h].live && m_entries[h].watch) index_entry(h);
  }
  Ps best = MemoryWatch::kNever;
  const auto [first, last] = chunks_of(begin, static_cast<uint64_t>(end - begin));
  for (uint64_t c = first; c <= last; ++c) {
    m_by_chunk.for_each(c, [&](Handle h) {
      const Entry& e = m_entries[h];
      const uint8_t* dst = e.dst;
      uint64_t len = e.len;
      if (!dst) {  // an action: the memory it said it may write
        const auto t = m_action_touch.find(h);
        if (t == m_action_touch.end()) return;
        std::tie(dst, len) = t->second;
      }
      const uint8_t* pending_from = dst + e.applied;  // units before are visible already
      if (!(dst + len > begin && end > pending_from)) return;
      const Ps t = MemoryWatch::first_touch_ps(std::max(begin, pending_from), pending_from, e.next_ps,
                                               e.dst ? e.unit_bytes : 0, e.unit_interval_ps);
      best = std::min(best, t);
    });
  }
  return best;
}

void VisibilityQueue::settle_burst(Ps now_ps) {
  // Worth it only when the due keys are a good part of the heap: taking them out rebuilds the rest.
  constexpr size_t kMinBurst = 8;
  const size_t sorted_due = m_heap.sorted_due(now_ps);
  const size_t due = sorted_due != VisibilityHeap::kUnsorted ? sorted_due : m_heap.count_due(now_ps);
  if (due < kMinBurst || 4 * due < m_heap.size()) return;
  if (sorted_due != VisibilityHeap::kUnsorted) {
    m_heap.take_sorted_due(due, m_burst);
  } else {
    m_heap.take_due(now_ps, m_burst);
  }
  m_burst_later.clear();
  size_t i = 0;
  for (; i < m_burst.size(); ++i) {
    const VisibilityHeap::Key k = m_burst[i];
    Entry& e = m_entries[k.write];
    if (!lands_alone(e)) break;
    apply_until(e, now_ps);  // its one unit is due: the write is visible
    // A lane with a next write is keyed again below; an owner that is not leaves the heap.
    if (k.id % 2 != 0) {
      m_heap.forget(k.id);
    } else {
      const Handle next = pop_lane(k.id / 2);
      if (next == kNoHandle) {
        m_heap.forget(k.id);
      } else {
        const Entry& n = m_entries[next];
        const VisibilityHeap::Key nk{n.next_ps, n.seq, k.id, next};
        if (nk.t > now_ps) {
          m_burst_later.push_back(nk);
        } else {  // due in this burst too (rare): in its place among the keys still to land
          m_burst.insert(std::upper_bound(m_burst.begin() + static_cast<std::ptrdiff_t>(i) + 1, m_burst.end(), nk,
                                          [](const VisibilityHeap::Key& a, const VisibilityHeap::Key& b) {
                                            return VisibilityHeap::before(a, b);
                                          }),
                         nk);
        }
      }
    }
    release(k.write);  // finish with no callback (lands_alone)
  }
  m_burst_later.insert(m_burst_later.end(), m_burst.begin() + static_cast<std::ptrdiff_t>(i), m_burst.end());
  if (!m_heap.empty()) {
    m_heap.put_back(m_burst_later.data(), m_burst_later.data() + m_burst_later.size());
    return;
  }
  // The whole heap was due (put-heavy: every lane's key, every round): its next keys sorted now
  // are the heap, and the next burst takes them in that order without sorting them there.
  std::sort(m_burst_later.begin(), m_burst_later.end(),
            [](const VisibilityHeap::Key& a, const VisibilityHeap::Key& b) { return VisibilityHeap::before(a, b); });
  m_heap.put_back_sorted(m_burst_later);
}

void VisibilityQueue::settle_due(Ps now_ps) {
  // A burst is looked for once, on entry (a round comes due between two settles), so that the
  // one-by-one loop below is what it was: MoE lands most units there, a few at a time.
  m_heap.file_due(now_ps);  // a held key
  if (m_heap.size() <= VisibilityHeap::kMaxBurstHeap && m_heap.top_children_due(now_ps) &&
      lands_alone(m_entries[m_heap.top().write]))
    settle_burst(now_ps);
  for (;;) {
    if (m_heap.empty() || m_heap.top().t > now_ps) return;
    const uint32_t id = m_heap.top().id;
    if (id % 2 == 0) {
      settle_lane(id / 2, m_heap.top().write, now_ps);
    } else {
      settle_write(id / 2, now_ps);
    }
    m_heap.file_due(now_ps);  // one an action just scheduled
  }
}

void VisibilityQueue::force(Handle h) {
  if (!m_entries[h].live) return;
  const uint32_t generation = m_entries[h].generation;
  const auto now = sim_now_ps();
  settle(now);  // what is due has happened, in order (a put's reads of bytes this write changes)
  if (!pending(h, generation)) return;
  Entry& e = m_entries[h];
  if (m_watch && e.watch && e.dst)  // visible now instead of at its time
    m_watch->written(e.dst + e.applied, e.len - e.applied, now);
  // Unit by unit, a stream that reads the bytes before the unit's own time reads them first.
  while (e.applied < e.len) {
    const uint64_t unit_end = e.unit_interval_ps > 0 ? std::min<uint64_t>(e.len, e.applied + e.unit_bytes) : e.len;
    if (e.dst) before_forced_write(e.dst + e.applied, unit_end - e.applied, e.next_ps);
    apply_until(e, e.next_ps);
  }
  // Its key leaves now. A lane's later write is keyed at once; one forced behind the lane's
  // oldest stays in the lane's FIFO, dead, until it reaches the front.
  if (e.lane == kNoLane) {
    m_heap.erase(write_id(h));
  } else if (m_lanes[e.lane].writes.front().first == h) {
    rekey_lane(e.lane);
  }
  finish(h);
}

void VisibilityQueue::write_now(uint8_t* dst, const uint8_t* src, uint64_t len, Ps write_ps) {
  if (len == 0) return;
  m_horizon_ps = std::max(m_horizon_ps, write_ps);
  ++m_writes;  // numbered as a scheduled write, so later writes keep theirs
  const auto now = sim_now_ps();
  if (m_heap.next_t() <= now) settle(now);  // as force: what is due has happened, in order
  if (m_watch) {  // as schedule, then force
    m_watch->written(dst, len, write_ps);
    m_watch->written(dst, len, now);
  }
  before_write(dst, len, write_ps);
  std::memcpy(dst, src, len);
}

bool VisibilityQueue::pending(Handle h, uint32_t generation) const {
  const Entry& e = m_entries[h];
  return e.live && e.generation == generation;
}

Ps VisibilityQueue::next_ps() const {
  return m_heap.next_t();
}

}  // namespace symsim
