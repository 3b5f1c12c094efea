// The visibility queue's engine streams (a put reading its source as units land): indexed by
// source chunk so that a write made visible before its time (before_write) lets the units due
// earlier read first, and remembers the bytes it replaced for streams scheduled until its time.
#include <algorithm>
#include <cstring>
#include <vector>

#include "models/core/sim_now.h"
#include "models/memory/sparse_region.h"
#include "models/memory/visibility_queue.h"

namespace symsim {

namespace {
inline uint64_t chunk_of(const uint8_t* p, uint64_t chunk_bytes) {
  return reinterpret_cast<uintptr_t>(p) / chunk_bytes;
}

// A spare buffer still in cache for `old`, rather than a fresh allocation. Out of line, so that
// remember_early still inlines into before_write: the put path's 64-byte WQEs fit the slot's
// own buffer and never come here.
[[gnu::noinline]] void take_spare(SpareBuffers& spares, std::vector<uint8_t>& old, uint64_t len) {
  std::vector<uint8_t> spare = spares.take(len);
  if (spare.capacity() > 0) old = std::move(spare);
}

// The old bytes of a forced copy's unit into `old` (empty: a slot's is, from expire_early).
// From a page on (MoE's 7-14 KiB tokens and rows), bytes all zero (memory written for the first
// time: a staging buffer's or a send ring row's first use) are not kept: `old` stays empty and
// readers take zeros (copy_old). The test reads what the copy would have read and stops at the
// first nonzero line; the copy it saves goes into a spare buffer gone cold since its last use
// (docs/performance.md, s33-ep). Out of line, with `insert` rather than `assign`, so that
// remember_early's own `assign` (the put path's) stays the only one and inline.
[[gnu::noinline]] void keep_forced_old(SpareBuffers& spares, std::vector<uint8_t>& old, const uint8_t* begin,
                                       uint64_t len) {
  if (len >= SparseRegion::kHostPageBytes) {
    // The copy writes every page of the unit next. Touching each first with a write that keeps
    // its byte (an atomic OR of 0) makes a page never touched fault once, as the copy's write
    // would; the zero test's read alone would map the zero page, and the copy then fault again
    // (43,600 of EP 64's 535,000 faults; docs/performance.md, session 34).
    const auto a = reinterpret_cast<uintptr_t>(begin);
    for (uintptr_t page = a & ~(SparseRegion::kHostPageBytes - 1); page < a + len; page += SparseRegion::kHostPageBytes)
      __atomic_fetch_or(reinterpret_cast<uint8_t*>(std::max(page, a)), uint8_t{0}, __ATOMIC_RELAXED);
    if (SparseRegion::is_zero(begin, len)) return;
  }
  if (len > old.capacity()) take_spare(spares, old, len);
  old.insert(old.end(), begin, begin + len);
}

// What an early write replaced, [from, from + n) of it, into `to`.
inline void copy_old(uint8_t* to, const std::vector<uint8_t>& old, uint64_t from, uint64_t n) {
  if (old.empty()) {  // all zero (remember_early)
    std::memset(to, 0, n);
  } else {
    std::memcpy(to, old.data() + from, n);
  }
}
}  // namespace

VisibilityQueue::Handle VisibilityQueue::schedule_stream(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes,
                                                         uint8_t* dst, const uint8_t* src, uint64_t len, Lane lane) {
  const Handle h = enqueue(first_visible_ps, unit_interval_ps, unit_bytes, dst, len, lane);  // as schedule_dma
  m_entries[h].src = src;
  if (len == 0) return h;
  m_entries[h].stream_node = m_streams.insert(h, chunk_of(src, kStreamChunkBytes), chunk_of(src + len - 1, kStreamChunkBytes));
  if (any_early()) read_before_early_writes(h);
  return h;
}

// Inline before its callers: most calls find the oldest early write still due (two tests).
inline void VisibilityQueue::expire_early(Ps now_ps) {
  m_early_expired_ps = std::max(m_early_expired_ps, now_ps);
  if (!any_early() || !early_gone(m_early[m_early_order[m_early_head]])) return;
  do {
    const uint32_t i = m_early_order[m_early_head++];
    EarlyWrite& w = m_early[i];
    if (w.node != ChunkIndex::kNil) {
      m_early_chunks.erase(w.node);
      w.node = ChunkIndex::kNil;
    }
    if (w.old.capacity() > kKeptOldBytes) {  // a large rewrite's buffer goes to the spares; small ones stay
      m_spare_old.give(std::move(w.old));
    } else {
      w.old.clear();
    }
    m_early_free.push_back(i);
  } while (any_early() && early_gone(m_early[m_early_order[m_early_head]]));
  m_early_filed = std::max(m_early_filed, m_early_head);
  if (!any_early()) {
    m_early_order.clear();
    m_early_head = 0;
    m_early_filed = 0;
    m_early_unfiled_bits.fill(0);
  } else if (m_early_head >= 64 && 2 * m_early_head >= m_early_order.size()) {
    m_early_order.erase(m_early_order.begin(), m_early_order.begin() + static_cast<std::ptrdiff_t>(m_early_head));
    m_early_filed -= m_early_head;
    m_early_head = 0;
  }
}

inline bool VisibilityQueue::may_read_unfiled_early(const uint8_t* begin, uint64_t len) const {
  for (uint64_t c = chunk_of(begin, kStreamChunkBytes); c <= chunk_of(begin + len - 1, kStreamChunkBytes); ++c) {
    const uint64_t b = early_bit(c);
    if (m_early_unfiled_bits[b / 64] >> (b % 64) & 1) return true;
  }
  return false;
}

// Out of line: a reader of an unfiled early write's chunk (or one that shares its bit) is rare.
[[gnu::noinline]] void VisibilityQueue::file_early() {
  for (size_t k = m_early_filed; k < m_early_order.size(); ++k) {
    const uint32_t i = m_early_order[k];
    EarlyWrite& w = m_early[i];
    if (early_gone(w)) continue;  // no reader looks at it again; expire_early drops it unfiled
    w.node = m_early_chunks.insert(i, chunk_of(w.begin, kStreamChunkBytes),
                                   chunk_of(w.begin + w.len - 1, kStreamChunkBytes));
  }
  m_early_filed = m_early_order.size();
  m_early_unfiled_bits.fill(0);
}

template <bool kMayBeZeros>
inline void VisibilityQueue::remember_early(const uint8_t* begin, uint64_t len, Ps write_ps) {
  uint32_t i;
  if (!m_early_free.empty()) {
    i = m_early_free.back();
    m_early_free.pop_back();
  } else {
    i = static_cast<uint32_t>(m_early.size());
    m_early.emplace_back();
  }
  EarlyWrite& w = m_early[i];
  w.begin = begin;
  w.len = len;
  w.write_ps = write_ps;
  // Only force asks for the zero test (kMayBeZeros, keep_forced_old): the put path's WQE copies
  // and stores compile as before, with this function's one `assign` inline.
  if constexpr (kMayBeZeros) {
    keep_forced_old(m_spare_old, w.old, begin, len);
  } else {
    if (len > w.old.capacity()) take_spare(m_spare_old, w.old, len);
    w.old.assign(begin, begin + len);
  }
  w.node = ChunkIndex::kNil;  // filed when a reader may need it (file_early)
  for (uint64_t c = chunk_of(begin, kStreamChunkBytes); c <= chunk_of(begin + len - 1, kStreamChunkBytes); ++c) {
    const uint64_t b = early_bit(c);
    m_early_unfiled_bits[b / 64] |= uint64_t{1} << (b % 64);
  }
  m_early_order.push_back(i);
}

inline void VisibilityQueue::read_before_early_writes(Handle h) {
  expire_early(sim_now_ps());
  Entry& e = m_entries[h];
  if (any_unfiled_early() && may_read_unfiled_early(e.src, e.len)) file_early();
  if (m_early_chunks.empty()) return;  // none filed: none of its chunks (nor any other) has one
  const uint8_t* end = e.src + e.len;
  for (uint64_t c = chunk_of(e.src, kStreamChunkBytes); c <= chunk_of(end - 1, kStreamChunkBytes); ++c) {
    m_early_chunks.for_each(c, [&](uint32_t i) {
      const EarlyWrite& w = m_early[i];
      const uint8_t* lo = std::max(e.src, w.begin);
      const uint8_t* hi = std::min(end, w.begin + w.len);
      if (lo >= hi || e.next_ps >= w.write_ps || early_gone(w)) return;
      const uint64_t unit = e.unit_bytes;
      uint64_t before_end = e.len;  // bytes of the units that land (read) before the write
      if (e.unit_interval_ps > 0)
        before_end = std::min(e.len, ((w.write_ps - e.next_ps - 1) / e.unit_interval_ps + 1) * unit);
      const auto lo_off = static_cast<uint64_t>(lo - e.src);
      const uint64_t hi_off = std::min(static_cast<uint64_t>(hi - e.src), before_end);
      if (lo_off >= hi_off) return;
      hold(e, (hi_off + unit - 1) / unit * unit);
      // The held bytes are memory as it is now, after the early write: put back what it replaced.
      copy_old(e.data.data() + (lo_off - e.held_from), w.old, static_cast<uint64_t>(lo - w.begin), hi_off - lo_off);
    });
  }
}

VisibilityQueue::Handle VisibilityQueue::schedule_read(Ps read_ps, Ps first_visible_ps, Ps unit_interval_ps,
                                                       uint32_t unit_bytes, uint8_t* dst, const uint8_t* src,
                                                       uint64_t len, Lane lane) {
  const Handle h = schedule(first_visible_ps, unit_interval_ps, unit_bytes, dst, src, len, nullptr, lane);
  if (!any_early() || len == 0) return h;
  if (any_unfiled_early() && may_read_unfiled_early(src, len)) file_early();
  std::vector<uint32_t> early;  // the early writes of these bytes due after the read
  for (uint64_t c = chunk_of(src, kStreamChunkBytes); c <= chunk_of(src + len - 1, kStreamChunkBytes); ++c)
    m_early_chunks.for_each(c, [&](uint32_t i) {
      const EarlyWrite& w = m_early[i];
      if (w.write_ps > read_ps && !early_gone(w) && w.begin < src + len && src < w.begin + w.len &&
          std::find(early.begin(), early.end(), i) == early.end())
        early.push_back(i);
    });
  // Latest first, so that where two overlap the bytes before the earlier one win.
  std::sort(early.begin(), early.end(), [&](uint32_t a, uint32_t b) { return m_early[a].write_ps > m_early[b].write_ps; });
  Entry& e = m_entries[h];
  for (const uint32_t i : early) {
    const EarlyWrite& w = m_early[i];
    if (e.zeros) {
      e.zeros = false;
      e.data.assign(len, 0);
    }
    const uint8_t* lo = std::max(src, w.begin);
    const uint8_t* hi = std::min(src + len, w.begin + w.len);
    copy_old(e.data.data() + (lo - src), w.old, static_cast<uint64_t>(lo - w.begin), static_cast<uint64_t>(hi - lo));
  }
  return h;
}

void VisibilityQueue::hold(Entry& e, uint64_t end) {
  end = std::min(end, e.len);
  if (end <= e.applied) return;
  if (e.held_to <= e.applied) {  // nothing held ahead: start at the next unit to land
    e.held_from = e.held_to = e.applied;
    e.data.clear();
  }
  if (end <= e.held_to) return;
  e.data.insert(e.data.end(), e.src + e.held_to, e.src + end);
  e.held_to = end;
}

template <bool kMayBeZeros>
inline void VisibilityQueue::before_write_as(const uint8_t* begin, uint64_t len, Ps write_ps) {
  if (len == 0) return;
  const auto now = sim_now_ps();
  expire_early(now);
  if (write_ps > now) remember_early<kMayBeZeros>(begin, len, write_ps);
  if (m_streams.empty()) return;
  const uint8_t* end = begin + len;
  for (uint64_t c = chunk_of(begin, kStreamChunkBytes); c <= chunk_of(end - 1, kStreamChunkBytes); ++c) {
    m_streams.for_each(c, [&](Handle h) {
      Entry& e = m_entries[h];
      if (!e.live || e.next_ps >= write_ps) return;  // its next unit lands (reads) after the write
      const uint8_t* lo = std::max(begin, e.src + e.applied);
      const uint8_t* hi = std::min(end, e.src + e.len);
      if (lo >= hi) return;
      // Units from the next one to land up to the last one that overlaps the write and lands
      // before it read the source now (units land, and so read, in order).
      const uint64_t unit = e.unit_bytes;
      const auto last_overlap_end = (static_cast<uint64_t>(hi - e.src) + unit - 1) / unit * unit;
      uint64_t before_end = e.len;
      if (e.unit_interval_ps > 0) {
        const uint64_t units_before = (write_ps - e.next_ps - 1) / e.unit_interval_ps + 1;
        before_end = e.applied / unit * unit + units_before * unit;
      }
      hold(e, std::min(last_overlap_end, before_end));
    });
  }
}

void VisibilityQueue::before_write(const uint8_t* begin, uint64_t len, Ps write_ps) {
  before_write_as<false>(begin, len, write_ps);
}

void VisibilityQueue::before_forced_write(const uint8_t* begin, uint64_t len, Ps write_ps) {
  before_write_as<true>(begin, len, write_ps);
}

}  // namespace symsim
