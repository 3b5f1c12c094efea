#include "models/memory/visibility_queue.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace symsim {

VisibilityQueue::Handle VisibilityQueue::allocate() {
  if (!m_free.empty()) {
    const Handle h = m_free.back();
    m_free.pop_back();
    return h;
  }
  m_entries.emplace_back();
  return static_cast<Handle>(m_entries.size() - 1);
}

void VisibilityQueue::release(Handle h) {
  Entry& e = m_entries[h];
  e.live = false;
  ++e.generation;
  e.done = nullptr;
  m_free.push_back(h);
  --m_live;
}

VisibilityQueue::Lane VisibilityQueue::make_lane() {
  m_lanes.emplace_back();
  return static_cast<Lane>(m_lanes.size() - 1);
}

VisibilityQueue::Handle VisibilityQueue::schedule(Ps first_visible_ps, Ps unit_interval_ps,
                                                  uint32_t unit_bytes, uint8_t* dst,
                                                  const uint8_t* src, uint64_t len, DoneFn done, Lane lane) {
  const Handle h = allocate();
  Entry& e = m_entries[h];
  e.next_ps = first_visible_ps;
  e.unit_interval_ps = unit_interval_ps;
  e.unit_bytes = unit_bytes == 0 ? static_cast<uint32_t>(std::max<uint64_t>(len, 1)) : unit_bytes;
  e.dst = dst;
  e.len = len;
  e.applied = 0;
  e.live = true;
  e.data.assign(src, src + len);
  e.done = std::move(done);
  ++m_live;
  const uint64_t units = (len + e.unit_bytes - 1) / e.unit_bytes;
  const Ps last = first_visible_ps + (units > 0 ? (units - 1) * unit_interval_ps : 0);
  m_horizon_ps = std::max(m_horizon_ps, last);
  if (lane != kNoLane && first_visible_ps >= m_lanes[lane].last_ps) {
    LaneState& l = m_lanes[lane];
    l.writes.emplace_back(h, e.generation);
    l.last_ps = last;
    if (!l.keyed) key_lane(lane);
  } else {
    m_heap.push({first_visible_ps, m_seq++, h, kNoLane});
  }
  return h;
}

void VisibilityQueue::key_lane(Lane lane) {
  LaneState& l = m_lanes[lane];
  while (!l.writes.empty()) {
    const auto [h, gen] = l.writes.front();
    if (m_entries[h].live && m_entries[h].generation == gen) {
      m_heap.push({m_entries[h].next_ps, m_seq++, h, lane});
      l.keyed = true;
      return;
    }
    l.writes.pop_front();  // forced by its writer already
  }
  l.keyed = false;
}

void VisibilityQueue::finish(Handle h) {
  Entry& e = m_entries[h];
  const Ps visible = e.next_ps;
  DoneFn done = std::move(e.done);
  release(h);
  if (done) done(visible);
}

void VisibilityQueue::settle_lane(Lane lane, Ps now_ps) {
  LaneState& l = m_lanes[lane];
  l.keyed = false;
  while (!l.writes.empty()) {
    const auto [h, gen] = l.writes.front();
    Entry& e = m_entries[h];
    if (!e.live || e.generation != gen) {
      l.writes.pop_front();
      continue;
    }
    if (e.next_ps > now_ps || !apply_until(e, now_ps)) break;
    l.writes.pop_front();
    finish(h);
  }
  key_lane(lane);
}

VisibilityQueue::Handle VisibilityQueue::schedule_value(Ps visible_ps, uint8_t* dst, uint64_t value,
                                                        uint32_t len, Lane lane) {
  uint8_t bytes[8];
  std::memcpy(bytes, &value, sizeof(bytes));
  return schedule(visible_ps, 0, len, dst, bytes, len, nullptr, lane);
}

VisibilityQueue::Handle VisibilityQueue::schedule_action(Ps t_ps, DoneFn action) {
  return schedule(t_ps, 0, 0, nullptr, nullptr, 0, std::move(action));
}

bool VisibilityQueue::apply_until(Entry& e, Ps now_ps) {
  while (e.applied < e.len && e.next_ps <= now_ps) {
    const uint64_t n = std::min<uint64_t>(e.unit_bytes, e.len - e.applied);
    std::memcpy(e.dst + e.applied, e.data.data() + e.applied, n);
    e.applied += n;
    if (e.applied < e.len) e.next_ps += e.unit_interval_ps;
  }
  return e.applied >= e.len;
}

void VisibilityQueue::settle(Ps now_ps) {
  while (!m_heap.empty() && m_heap.top().t <= now_ps) {
    const Key k = m_heap.top();
    m_heap.pop();
    if (k.lane != kNoLane) {
      settle_lane(k.lane, now_ps);
      continue;
    }
    Entry& e = m_entries[k.h];
    if (!e.live || e.next_ps != k.t) continue;  // forced earlier, or a stale key
    if (apply_until(e, now_ps)) {
      finish(k.h);
    } else {
      m_heap.push({e.next_ps, m_seq++, k.h, kNoLane});
    }
  }
}

void VisibilityQueue::force(Handle h) {
  Entry& e = m_entries[h];
  if (!e.live) return;
  apply_until(e, std::numeric_limits<Ps>::max());
  finish(h);
}

bool VisibilityQueue::pending(Handle h, uint32_t generation) const {
  const Entry& e = m_entries[h];
  return e.live && e.generation == generation;
}

Ps VisibilityQueue::next_ps() const {
  // The heap may hold stale keys; callers use this only as a lower bound.
  return m_heap.empty() ? std::numeric_limits<Ps>::max() : m_heap.top().t;
}

}  // namespace symsim
