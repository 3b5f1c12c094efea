// Writes that become visible to other agents at a simulated time: remote data landing in
// 512 B units, CQEs, notify words, MTE copies still in flight. Applied lazily: whoever is about
// to observe memory (an engine fetching a WQE, a kernel polling after dcci) settles the queue
// up to its time first.
//
// Order: every unit of every write is applied in the order (visibility time, write number),
// where writes are numbered as they are scheduled. Two units due at the same picosecond apply
// in the order their writes were scheduled, whatever the lanes, however the queue was settled
// and whichever writes were forced meanwhile. (Before session 10 a lane's key took a sequence
// number when it was filed, so a same-time tie went to whichever lane was re-keyed first; see
// docs/performance.md, "Session 10: the put path, model side".) A forced write applies at once,
// out of this order: its writer waited for it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "models/core/time.h"
#include "models/memory/memory_watch.h"
#include "models/memory/spare_buffers.h"
#include "models/memory/visibility_queue_chunk_index.h"
#include "models/memory/visibility_queue_heap.h"

namespace symsim {

class VisibilityQueue {
 public:
  using Handle = uint32_t;
  // A lane holds writes whose times never go backwards (one QP's data, one pipe's copies): the
  // heap then holds one key per lane (its oldest pending write) instead of one per write. A
  // write that would go backwards in its lane is queued on its own, so lanes are a speed-up,
  // never a change of order.
  using Lane = uint32_t;
  static constexpr Lane kNoLane = UINT32_MAX;
  // `watched` false: nobody can poll what this lane writes (a core's own Unified Buffer).
  Lane make_lane(bool watched = true);
  // Called once a write is fully visible (e.g. to count a delivered message).
  using DoneFn = std::function<void(Ps visible_ps)>;

  // Schedules `len` bytes copied now from `src` to land at `dst`: unit k (of `unit_bytes`)
  // becomes visible at first_visible_ps + k * unit_interval_ps.
  Handle schedule(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes, uint8_t* dst,
                  const uint8_t* src, uint64_t len, DoneFn done = nullptr, Lane lane = kNoLane);
  // As schedule, but a DMA: each unit is read from `src` when it lands, not copied now (an
  // engine streams its source; a source rewritten before the write completes may be seen).
  Handle schedule_dma(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes, uint8_t* dst,
                      const uint8_t* src, uint64_t len, Lane lane = kNoLane);
  // As schedule_dma, for an engine streaming a source that its owner may rewrite while the
  // write is in flight (a put's source in HBM): a write made visible before its time
  // (before_write) cannot change a unit this write reads earlier.
  Handle schedule_stream(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes, uint8_t* dst,
                         const uint8_t* src, uint64_t len, Lane lane = kNoLane);
  // [begin, begin + len) is about to be overwritten now by a write whose time is `write_ps`
  // (a forced copy, a device store): every unit of a stream that reads those bytes before
  // `write_ps` takes its bytes now, as they were, and so does a stream scheduled later (an
  // engine that fetches its WQE after this) until `write_ps` has passed.
  void before_write(const uint8_t* begin, uint64_t len, Ps write_ps);
  // As schedule, for bytes an engine read at `read_ps` (a READ's source, copied now that the
  // read is due): bytes a write made visible before its time (before_write) replaced, where
  // that time is after `read_ps`, are read as they were.
  Handle schedule_read(Ps read_ps, Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes, uint8_t* dst,
                       const uint8_t* src, uint64_t len, Lane lane = kNoLane);
  // As schedule (one unit of `len` bytes, below 4 KiB), for bytes the caller writes into the returned buffer
  // at once, before any other call on the queue: a CQE encoded in place instead of on the stack
  // and copied.
  uint8_t* schedule_in_place(Ps visible_ps, uint8_t* dst, uint32_t len, Lane lane = kNoLane);
  // A single store of up to 8 bytes (flags, signals, doorbell records).
  Handle schedule_value(Ps visible_ps, uint8_t* dst, uint64_t value, uint32_t len, Lane lane = kNoLane);
  // Runs `action` once memory is settled to `t_ps` (a read-modify-write at the target, such as
  // a remote atomic): it sees every write visible at or before `t_ps` and may schedule more.
  // `touches` / `touch_len`: the memory the action may write, for readers asleep on it.
  Handle schedule_action(Ps t_ps, DoneFn action, uint8_t* touches = nullptr, uint64_t touch_len = 0);

  // Applies every unit visible at or before `now_ps`. Inline: at most syncs nothing is due, and then
  // the call and its frame (a line of a coroutine stack gone cold at scale) are skipped.
  void settle(Ps now_ps) {
    if (m_heap.next_t() <= now_ps) settle_due(now_ps);
  }
  // Makes a scheduled write fully visible now (the writer waited for its completion).
  void force(Handle h);
  // `len` bytes from `src` written to `dst` now by a writer that would force them at once, though
  // their time is `write_ps` (a WQE copied into an SQ ring, read by its engine only after a later
  // doorbell): schedule followed by force, without the entry. Streams that read those bytes
  // before `write_ps` still read them as they were (before_write).
  void write_now(uint8_t* dst, const uint8_t* src, uint64_t len, Ps write_ps);
  // True if the write `h` is still (partly) pending.
  bool pending(Handle h, uint32_t generation) const;
  uint32_t generation(Handle h) const { return m_entries[h].generation; }

  bool empty() const { return m_live == 0; }
  size_t live() const { return m_live; }
  // Earliest time something becomes visible; UINT64_MAX when empty.
  Ps next_ps() const;
  // Last time any write was scheduled to become visible (for end-of-run settling).
  Ps horizon_ps() const { return m_horizon_ps; }

  // Readers asleep on memory (MemoryWatch) hear of every write from now on; the queue then
  // also indexes its pending writes by 64 KiB chunk to answer earliest_write_ps, from the first time
  // that is asked (a run where no reader ever sleeps never pays for the index).
  void set_watch(MemoryWatch* watch) { m_watch = watch; }
  // When the first pending write touching [begin, end) becomes visible; MemoryWatch::kNever if none.
  Ps earliest_write_ps(const uint8_t* begin, const uint8_t* end);

 private:
  // What a unit's landing reads comes first, and an entry starts a cache line: one line per unit
  // landed at large EP, where the entries (thousands pending) are cold when their turn comes.
  struct alignas(64) Entry {
    Ps next_ps = 0;
    uint64_t seq = 0;                // write number: ties at the same time go to the lower
    Ps unit_interval_ps = 0;
    uint8_t* dst = nullptr;
    uint64_t len = 0;
    uint64_t applied = 0;
    const uint8_t* src = nullptr;    // DMA: read when applied; else the bytes are in `data`
    uint32_t unit_bytes = 0;
    bool live = false;
    bool zeros = false;              // the bytes are all zero (nothing stored)
    bool watch = false;              // reported to m_watch: readers asleep on memory may want it
    bool watched = false;            // in m_by_chunk, from watch_node
    std::vector<uint8_t> data;       // a DMA's units read early (held_from..held_to), else the bytes
    uint64_t held_from = 0;          // DMA: source bytes [held_from, held_to) are in `data`
    uint64_t held_to = 0;
    uint32_t generation = 0;
    Lane lane = kNoLane;
    uint32_t stream_node = ChunkIndex::kNil;  // a stream: its first node in m_streams
    bool has_done = false;           // m_done[handle] is set (few writes: kept apart)
    // Where `watched`: its first node in m_by_chunk. Read only then, so that filing a write
    // stores nothing more than the flag it always cleared.
    uint32_t watch_node = ChunkIndex::kNil;
  };
  // A FIFO that costs nothing while empty (a platform has three lanes per QP, most of them
  // idle; a std::deque allocates on construction).
  class WriteFifo {
   public:
    bool empty() const { return m_head == m_items.size(); }
    const std::pair<Handle, uint32_t>& front() const { return m_items[m_head]; }
    void emplace_back(Handle h, uint32_t generation) { m_items.emplace_back(h, generation); }
    void pop_front() {
      if (++m_head == m_items.size()) {
        m_items.clear();
        m_head = 0;
      } else if (m_head >= 64 && 2 * m_head >= m_items.size()) {
        m_items.erase(m_items.begin(), m_items.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
      }
    }

   private:
    std::vector<std::pair<Handle, uint32_t>> m_items;
    size_t m_head = 0;
  };
  struct LaneState {
    WriteFifo writes;  // (handle, generation), oldest first; the front is live when keyed
    Ps last_ps = 0;   // visibility time of the last unit of the newest write
    bool watched = true;
  };
  // Heap ids: lanes and writes outside a lane share one space.
  static uint32_t lane_id(Lane lane) { return 2 * lane; }
  static uint32_t write_id(Handle h) { return 2 * h + 1; }

  Handle allocate();
  // The entry's `done` is left empty (callers that have one move it in: most writes have none).
  Handle enqueue(Ps first_visible_ps, Ps unit_interval_ps, uint32_t unit_bytes, uint8_t* dst, uint64_t len,
                 Lane lane);
  void watch_entry(Handle h, const uint8_t* begin, uint64_t len);
  void unwatch_entry(Handle h);
  // Files a watched entry in m_by_chunk (once earliest_write_ps has been asked).
  void index_entry(Handle h);
  // The memory a watched entry writes: its destination, or what its action said it touches.
  std::pair<const uint8_t*, uint64_t> watched_range(Handle h) const;
  void release(Handle h);
  void unindex_stream(Handle h);
  // Reads units of stream `e` from its source now, up to byte offset `end` (a unit boundary).
  void hold(Entry& e, uint64_t end);
  // Applies units of `e` up to `until_ps`; true when the whole write is visible.
  bool apply_until(Entry& e, Ps until_ps);
  // Applies the units of `e` due at or before `now_ps` that come before `next` (the least other
  // key; nullptr: none); true when the whole write is visible.
  bool apply_before(Entry& e, Ps now_ps, const VisibilityHeap::Key* next);
  void settle_due(Ps now_ps);  // settle() once a key is due
  // Lands a burst of due keys together (VisibilityHeap::take_due), when they are a good part of
  // the heap, up to a write it leaves to the one-by-one path (then the top).
  void settle_burst(Ps now_ps);
  // A write the burst path lands as the one-by-one path would with no next key: one unit left,
  // nothing to call when done (a callback may schedule or force writes, which need the heap).
  static bool lands_alone(const Entry& e) { return !e.has_done && e.len - e.applied <= e.unit_bytes; }
  // The lane's oldest write has gone: drops the writes forced meanwhile; the next live one, or
  // kNoHandle when none is left.
  Handle pop_lane(Lane lane);
  static constexpr Handle kNoHandle = UINT32_MAX;
  // The top key's owner applies what is due before the next key, and its key moves on. `h`: the
  // lane's oldest write, from its key (the lane's own state is looked at only when it is done).
  void settle_lane(Lane lane, Handle h, Ps now_ps);
  void settle_write(Handle h, Ps now_ps);
  // The lane's oldest write has gone: drop the writes forced meanwhile and key the next one, or
  // take the lane's key out when none is left.
  void rekey_lane(Lane lane);
  void finish(Handle h);

  std::vector<Entry> m_entries;
  std::vector<DoneFn> m_done;  // by handle, where the entry's has_done
  std::vector<Handle> m_free;
  std::vector<LaneState> m_lanes;
  VisibilityHeap m_heap;
  std::vector<VisibilityHeap::Key> m_burst;        // the burst's keys, least first
  std::vector<VisibilityHeap::Key> m_burst_later;  // next keys due after the burst's time
  uint64_t m_writes = 0;  // writes scheduled so far: the next write's number
  size_t m_live = 0;
  Ps m_horizon_ps = 0;
  MemoryWatch* m_watch = nullptr;
  // Pending watched writes by the 64 KiB chunks they write (a write leaves when it is fully
  // visible); kept only from the first earliest_write_ps on (m_indexing). Chunks, not 4 KiB
  // pages: a MoE token's 7-14 KiB write is filed once or twice instead of 3-5 times and leaves
  // through its node list, while the few lookups (a sleeper's flag) test each write of the
  // chunk for overlap anyway.
  ChunkIndex m_by_chunk;
  bool m_indexing = false;
  // Where an action writes (its entry has no destination of its own).
  std::unordered_map<Handle, std::pair<const uint8_t*, uint64_t>> m_action_touch;
  // Pending streams by the 64 KiB chunks of their source (few inserts for a large put; a
  // write looks at the streams of its own chunks only).
  static constexpr uint64_t kStreamChunkBytes = 64 * 1024;
  ChunkIndex m_streams;
  // Writes made visible before their time, with the bytes they replaced, until that time: a
  // stream scheduled meanwhile reads those for its units due earlier. Few: each lives from a
  // WaitFlag / st_dev to the write's own time. Kept in the order they were made (a FIFO, not a
  // heap of expiries: cores' times interleave, but barely), and one whose time is at or before
  // m_early_expired_ps counts as gone even while a later-made one ahead of it keeps it filed.
  struct EarlyWrite {
    const uint8_t* begin = nullptr;
    uint64_t len = 0;
    Ps write_ps = 0;
    std::vector<uint8_t> old;  // the bytes it replaced; empty: they were all zero
    uint32_t node = ChunkIndex::kNil;  // its first node in m_early_chunks (kNil: not filed)
  };
  std::vector<EarlyWrite> m_early;
  // An early write keeps its buffer up to this size when it expires; a larger one (a token's
  // 7-14 KiB in MoE: every WaitFlag on an MTE3 copy into a staging buffer) goes to the spares,
  // which the next large one takes (spare_buffers.h). They come back in bursts, as the FIFO of
  // early writes expires (up to 98 MiB at once at EP 256), but a cap above a few MiB costs more
  // than it saves: the allocator, denied the buffers kept, grows the heap on fresh huge pages
  // (docs/performance.md, session 27).
  static constexpr size_t kKeptOldBytes = 4096;
  SpareBuffers m_spare_old{8u << 20};
  std::vector<uint32_t> m_early_free;
  ChunkIndex m_early_chunks;
  std::vector<uint32_t> m_early_order;  // oldest first from m_early_head
  size_t m_early_head = 0;
  Ps m_early_expired_ps = 0;  // every early write due at or before this has expired
  bool early_gone(const EarlyWrite& w) const { return w.write_ps <= m_early_expired_ps; }
  bool any_early() const { return m_early_head != m_early_order.size(); }
  // Early writes are filed in m_early_chunks when a reader may need them, not when made: nearly
  // every one (a WQE's copy into its SQ, once a put) expires with no reader of its chunks. Those
  // made since the last filing are m_early_order[m_early_filed..], and m_early_unfiled_bits has a
  // bit for each chunk they cover (hashed): a reader whose chunks have no bit set needs none of
  // them. Filed in the order they were made, a chunk's records are visited newest first as when
  // each was filed at once.
  size_t m_early_filed = 0;
  std::array<uint64_t, 64> m_early_unfiled_bits{};
  static uint64_t early_bit(uint64_t chunk) { return (chunk * 0x9E3779B97F4A7C15ull) >> 52; }  // of 4,096
  bool any_unfiled_early() const { return m_early_filed != m_early_order.size(); }
  bool may_read_unfiled_early(const uint8_t* begin, uint64_t len) const;
  void file_early();
  void expire_early(Ps now_ps);
  // kMayBeZeros: old bytes all zero are kept as none (force's copies; see remember_early).
  template <bool kMayBeZeros>
  void remember_early(const uint8_t* begin, uint64_t len, Ps write_ps);
  template <bool kMayBeZeros>
  void before_write_as(const uint8_t* begin, uint64_t len, Ps write_ps);
  // before_write for force's units: the bytes it replaces may be kept as "all zero".
  void before_forced_write(const uint8_t* begin, uint64_t len, Ps write_ps);
  // A stream just scheduled: its units due before an early write read the bytes it replaced.
  void read_before_early_writes(Handle h);
};

}  // namespace symsim
