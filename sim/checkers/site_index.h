// Remembers which kernel call posted each WQE (SHMEM API posts) and which doorbell store
// published it (hand-written WQEs), so engine-side hazards name the kernel's source line.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "models/ascend/ascend_observer.h"
#include "models/core/qp_table.h"
#include "sim/checkers/block_timed_ring.h"

namespace symsim {

struct QpRecord;

class SiteIndex : public AscendObserver {
 public:
  explicit SiteIndex(QpTable<QpRecord>& qps) : m_qps(qps) {}
  struct QpSites;
  // `mine` is the event's QP's part of its record (qp_record.h). Inline: one of each per WQE,
  // and the common case is a push.
  void on_post(const PostRecord& p, QpSites& mine);
  void on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpSites& mine);  // SQ doorbells only

  // The call that posted WQE `wqe` of `q`, else the SQ doorbell store that published it.
  SiteRef site_of(const QpRef& q, uint32_t wqe) const;
  // The SQ doorbell store that carried `producer_index` (the latest one when none matches).
  SiteRef doorbell_site(const QpRef& q, uint32_t producer_index) const;
  // The core that rang that doorbell (-1: unknown).
  int doorbell_core(const QpRef& q, uint32_t producer_index) const;

  // The newest SQ doorbell store of `q`: its producer index, when, and where.
  struct StoredDoorbell {
    uint32_t value;
    Ps t;
    SiteRef site;
  };
  std::optional<StoredDoorbell> last_doorbell(const QpRef& q) const;

  // Per QP, in the order they happened, the newest kKeptPerQp: (WQE index, call site) of the
  // posts (indices increase) and the SQ doorbell stores. Bounded rings (a vector trimmed by
  // halves held up to twice as many, 37 MiB over put-heavy's 32 QPs, and moved them at each trim).
  //
  // The rings are written on every post and doorbell store and read only for a report, so their
  // bytes are the lines a WQE streams through the caches (each slot was last written a ring ago:
  // a miss beyond the L2, s34-miss). So an entry holds only what a report reads back, 8 bytes
  // (an eighth of a line; 16 until s36-ratio3, a post's 24 and a doorbell's 40 before s34):
  // - the site as its return address alone: both hooks' one emitter (the Ascend shim's
  //   shmem_udma.cpp post and ascendc.cpp device_store_at) passes site_ref(CallSite), which
  //   sets the pc only (file null, line 0); a site with a file is refused (pc_only_site);
  // - the return address as its low 32 bits: its high 32 are the record's (pc_high, those of
  //   the QP's first post or doorbell store; a process's code lies in a few mappings, each far
  //   smaller than 4 GiB), kept in the ring as every block's base (BlockTimedRing,
  //   block_timed_ring.h, whose "time" here is the return address);
  // - a doorbell's core is the record's (bell_core, the core of the QP's first store; on
  //   put-heavy every store is its poster's);
  // - no store time in a doorbell's entry: only the newest store's time is read (the hang
  //   report's "last SQ doorbell stored"), kept once per QP (QpSites::last_doorbell_ps).
  // An entry that fits neither (a return address with other high bits or low bits all ones,
  // another core) is kept whole on the ring's side map, so every report reads back exactly what was pushed.
  static constexpr uint32_t kKeptPerQp = 4096;
  struct Doorbell {
    const void* pc;
    uint32_t value;
    int core;
    SiteRef site() const { return pc_site(pc); }
  };
  struct Post {
    const void* pc;
    uint32_t wqe;
    SiteRef site() const { return pc_site(pc); }
  };
  // 80 bytes: the record's post and doorbell block (qp_record.h) holds it and the producers part
  // (48) in two lines.
  struct QpSites {
    BlockTimedRing<Post> posts;          // value: the WQE index
    BlockTimedRing<Doorbell> doorbells;  // value: the producer index
    // Sequence numbers count pushes from 0, modulo 2^32: the live posts are the newest
    // post_count() before post_tail (all of them until kKeptPerQp have been pushed: `post_full`
    // set then, by the push that first drops one). The same for the stores. (No front kept: a
    // push reads and writes its tail only.)
    uint32_t post_tail = 0, post_full = 0;
    uint32_t bell_tail = 0, bell_full = 0;
    int bell_core = -1;     // the core of every store not kept whole
    uint32_t pc_high = 0;   // the high 32 bits of every return address not kept whole
    Ps last_doorbell_ps = 0;  // the store time of the newest store

    uint32_t post_count() const { return post_full ? kKeptPerQp : post_tail; }
    uint32_t bell_count() const { return bell_full ? kKeptPerQp : bell_tail; }
    uint32_t post_head() const { return post_tail - post_count(); }
    uint32_t bell_head() const { return bell_tail - bell_count(); }
    // The i-th live post's WQE index, oldest first (a binary search reads only these).
    uint32_t post_wqe(size_t i) const { return posts.slot(post_head() + static_cast<uint32_t>(i)).value; }
    Post post(size_t i) const;
    uint32_t bell_value(size_t i) const { return doorbells.slot(bell_head() + static_cast<uint32_t>(i)).value; }
    Doorbell doorbell(size_t i) const;
  };
  static_assert(sizeof(QpSites) == 80, "the call-site index's part of a QP record");

  static SiteRef pc_site(const void* pc) {
    SiteRef s;
    s.pc = pc;
    return s;
  }
  // The check that a hook's site is a return address alone (file null; the line is then never
  // read: site_text resolves it from the pc). Out of line: it throws.
  static void check_pc_only(const SiteRef& s) {
    if (s.file) pc_only_site(s);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void pc_only_site(const SiteRef& s);
 private:
  static void repost(const PostRecord& p, QpSites& mine);  // an index not after the last one
  template <typename Whole>
  static typename BlockTimedRing<Whole>::Slot& push_slot(BlockTimedRing<Whole>& ring, uint32_t& full,
                                                         uint32_t& tail, uint32_t value, QpSites& mine);
  // Out of line: the first push of a ring, or its doubling (below its cap: every entry pushed is
  // live).
  template <typename Whole>
  [[gnu::noinline]] static void grow(BlockTimedRing<Whole>& ring, uint32_t tail, QpSites& mine);
  static bool fits(const void* pc, const QpSites& mine);
  // Out of line: the record's first post or store (which sets pc_high, bell_core), or an entry
  // that does not fit its slot (kept whole); post `seq` or the newest store. The fields by value
  // (an entry passed by reference is built on the stack on every push).
  [[gnu::noinline]] static void post_slowly(uint32_t seq, const void* pc, uint32_t wqe, QpSites& mine);
  [[gnu::noinline]] static void bell_slowly(const void* pc, uint32_t value, int core, QpSites& mine);
  const QpTable<QpRecord>& m_qps;
};

// The slot of a new newest entry of `ring` (value written; its offset the caller's), dropping the
// oldest once kKeptPerQp are held. The first push of the record takes its return address's high
// bits as the record's, the first store its core.
template <typename Whole>
inline typename BlockTimedRing<Whole>::Slot& SiteIndex::push_slot(BlockTimedRing<Whole>& ring, uint32_t& full,
                                                                  uint32_t& tail, uint32_t value, QpSites& mine) {
  // The ring is full when the tail comes round to slot 0 (or not allocated yet, mask 0): below
  // its cap it doubles; at its cap the push overwrites the oldest, and from the first such push
  // on the ring holds kKeptPerQp.
  if (__builtin_expect((tail & ring.mask()) == 0, false)) {
    if (ring.mask() == kKeptPerQp - 1) {
      full = 1;
    } else {
      grow(ring, tail, mine);
    }
  }
  // (Every block's base is the record's pc_high, set at the ring's growth and at the first entry.)
  auto& slot = ring.slot(tail++);
  slot.value = value;
  // The next line of entries, fetched now: a QP's next entry comes after the other QPs' WQEs
  // (about 32 on put-heavy) and lies on a line last written a whole ring ago, far out of the
  // caches. (At the ring's end it fetches the line after the ring, of no use; a prefetch never
  // faults.)
  __builtin_prefetch(&slot + BlockTimedRing<Whole>::kPerLine, 1);
  return slot;
}

// Its high bits the record's, and its low bits not kEscaped (the mark of an entry kept whole):
// low bits all ones carry into the high bits of pc + 1.
inline bool SiteIndex::fits(const void* pc, const QpSites& mine) {
  return static_cast<uint32_t>((reinterpret_cast<uintptr_t>(pc) + 1) >> 32) == mine.pc_high;
}

inline void SiteIndex::on_post(const PostRecord& p, QpSites& mine) {
  check_pc_only(p.site);
  if ((mine.post_tail | mine.post_full) != 0 &&  // not empty
      static_cast<int32_t>(p.wqe_index - mine.posts.slot(mine.post_tail - 1).value) <= 0)
    return repost(p, mine);
  auto& slot = push_slot(mine.posts, mine.post_full, mine.post_tail, p.wqe_index, mine);
  if (__builtin_expect(fits(p.site.pc, mine), true)) {
    slot.ps_offset = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p.site.pc));
  } else {
    post_slowly(mine.post_tail - 1, p.site.pc, p.wqe_index, mine);
  }
}

inline void SiteIndex::on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpSites& mine) {
  check_pc_only(site);
  auto& slot = push_slot(mine.doorbells, mine.bell_full, mine.bell_tail, value, mine);
  if (__builtin_expect(fits(site.pc, mine) && core == mine.bell_core, true)) {
    slot.ps_offset = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(site.pc));
  } else {
    bell_slowly(site.pc, value, core, mine);
  }
  mine.last_doorbell_ps = t;
}

}  // namespace symsim
