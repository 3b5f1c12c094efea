// Remembers which kernel call posted each WQE (SHMEM API posts) and which doorbell store
// published it (hand-written WQEs), so engine-side hazards name the kernel's source line.
#pragma once
#include <cstdint>
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

  // Entries hold the site's fields, not a SiteRef (whose padding made a post's entry 32 bytes,
  // not 24): the rings are written on every post and doorbell store and read only for a report,
  // so their bytes are the lines a WQE streams through the caches. Filled field by field in
  // their ring slots (bounded_ring.h's push_slot).
  struct Doorbell {
    const char* file;
    const void* pc;
    Ps t;
    int line;
    uint32_t value;
    int core;
    SiteRef site() const { return {file, line, pc}; }
  };
  // The newest SQ doorbell store of `q` (null: none).
  const Doorbell* last_doorbell(const QpRef& q) const;

  // Per QP, in the order they happened, the newest kKeptPerQp: (WQE index, call site) of the
  // posts (indices increase) and the SQ doorbell stores. Bounded rings: a vector trimmed by
  // halves held up to twice as many (37 MiB over put-heavy's 32 QPs) and moved them at each trim.
  static constexpr size_t kKeptPerQp = 4096;
  struct Post {
    const char* file;
    const void* pc;
    int line;
    uint32_t wqe;
    SiteRef site() const { return {file, line, pc}; }
    void set_site(const SiteRef& s) { file = s.file, pc = s.pc, line = s.line; }
  };
  static_assert(sizeof(Post) == 24, "a post's entry: 24 bytes");
  struct QpSites {
    BoundedRing<Post, kKeptPerQp> posts;
    BoundedRing<Doorbell, kKeptPerQp> doorbells;
  };

 private:
  static void repost(const PostRecord& p, QpSites& mine);  // an index not after the last one
  const QpTable<QpRecord>& m_qps;
};

inline void SiteIndex::on_post(const PostRecord& p, QpSites& mine) {
  auto& posts = mine.posts;
  if (!posts.empty() && static_cast<int32_t>(p.wqe_index - posts.back().wqe) <= 0) return repost(p, mine);
  Post& e = posts.push_slot();
  e.set_site(p.site);
  e.wqe = p.wqe_index;
}

inline void SiteIndex::on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpSites& mine) {
  Doorbell& e = mine.doorbells.push_slot();
  e.file = site.file, e.pc = site.pc, e.t = t, e.line = site.line, e.value = value, e.core = core;
}

}  // namespace symsim
