// Remembers which kernel call posted each WQE (SHMEM API posts) and which doorbell store
// published it (hand-written WQEs), so engine-side hazards name the kernel's source line.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "models/ascend/ascend_observer.h"
#include "models/core/qp_table.h"
#include "sim/checkers/bounded_ring.h"

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
  // posts (indices increase) and the SQ doorbell stores. Bounded rings: a vector trimmed by
  // halves held up to twice as many (37 MiB over put-heavy's 32 QPs) and moved them at each trim.
  //
  // The rings are written on every post and doorbell store and read only for a report, so their
  // bytes are the lines a WQE streams through the caches (each slot was last written a ring ago:
  // a miss beyond the L2, s34-miss). So an entry holds only what a report reads back, 16 bytes
  // (a quarter line; a post's was 24, a doorbell's 40):
  // - the site as its return address alone: both hooks' one emitter (the Ascend shim's
  //   shmem_udma.cpp post and ascendc.cpp device_store_at) passes site_ref(CallSite), which
  //   sets the pc only (file null, line 0); a site with a file is refused (pc_only_site);
  // - no store time in a doorbell's entry: only the newest store's time is read (the hang
  //   report's "last SQ doorbell stored"), kept once per QP (QpSites::last_doorbell_ps).
  // Filled field by field in their ring slots (bounded_ring.h's push_slot).
  static constexpr size_t kKeptPerQp = 4096;
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
  static_assert(sizeof(Post) == 16 && sizeof(Doorbell) == 16, "a history entry: a quarter of a cache line");
  struct QpSites {
    BoundedRing<Post, kKeptPerQp> posts;
    BoundedRing<Doorbell, kKeptPerQp> doorbells;
    Ps last_doorbell_ps = 0;  // the store time of doorbells.back()
  };

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
  const QpTable<QpRecord>& m_qps;
};

inline void SiteIndex::on_post(const PostRecord& p, QpSites& mine) {
  auto& posts = mine.posts;
  check_pc_only(p.site);
  if (!posts.empty() && static_cast<int32_t>(p.wqe_index - posts.back().wqe) <= 0) return repost(p, mine);
  Post& e = posts.push_slot();
  e.pc = p.site.pc;
  e.wqe = p.wqe_index;
}

inline void SiteIndex::on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpSites& mine) {
  check_pc_only(site);
  Doorbell& e = mine.doorbells.push_slot();
  e.pc = site.pc, e.value = value, e.core = core;
  mine.last_doorbell_ps = t;
}

}  // namespace symsim
