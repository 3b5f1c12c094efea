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

  struct Doorbell {
    uint32_t value;
    int core;
    SiteRef site;
    Ps t;
  };
  // The newest SQ doorbell store of `q` (null: none).
  const Doorbell* last_doorbell(const QpRef& q) const;

  // Per QP, in the order they happened, the newest kKeptPerQp: (WQE index, call site) of the
  // posts (indices increase) and the SQ doorbell stores. Bounded rings: a vector trimmed by
  // halves held up to twice as many (37 MiB over put-heavy's 32 QPs) and moved them at each trim.
  static constexpr size_t kKeptPerQp = 4096;
  struct Post {
    uint32_t wqe;
    SiteRef site;
  };
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
  posts.push_back({p.wqe_index, p.site});
}

inline void SiteIndex::on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpSites& mine) {
  mine.doorbells.push_back({value, core, site, t});
}

}  // namespace symsim
