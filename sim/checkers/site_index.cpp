#include "sim/checkers/site_index.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/checkers/qp_record.h"

namespace symsim {

void SiteIndex::repost(const PostRecord& p, QpSites& mine) {
  auto& posts = mine.posts;
  // Not after the last one (a re-post of an index): keep the newest site for it.
  for (size_t i = posts.size(); i-- > 0;)
    if (posts[i].wqe == p.wqe_index) {
      posts[i].pc = p.site.pc;
      return;
    }
  Post& e = posts.push_slot();
  e.pc = p.site.pc;
  e.wqe = p.wqe_index;
}

void SiteIndex::pc_only_site(const SiteRef& s) {
  throw std::logic_error(fmt::format("internal: a post or doorbell store named its call site by file ({}:{}); the "
                                     "call-site index keeps return addresses only (site_index.h)",
                                     s.file, s.line));
}

std::optional<SiteIndex::StoredDoorbell> SiteIndex::last_doorbell(const QpRef& q) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec || rec->sites.doorbells.empty()) return std::nullopt;
  return StoredDoorbell{rec->sites.doorbells.back().value, rec->sites.last_doorbell_ps, rec->sites.doorbells.back().site()};
}

SiteRef SiteIndex::site_of(const QpRef& q, uint32_t wqe) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return {};
  const auto& posts = rec->sites.posts;
  // The first post not before `wqe` (indices increase, mod 2^32).
  size_t lo = 0, hi = posts.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (static_cast<int32_t>(posts[mid].wqe - wqe) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < posts.size() && posts[lo].wqe == wqe) return posts[lo].site();
  const auto& d = rec->sites.doorbells;
  // The first doorbell whose producer index covers the WQE (indices are monotonic mod 2^32).
  for (size_t i = 0; i < d.size(); ++i)
    if (static_cast<int32_t>(d[i].value - wqe) > 0) return d[i].site();
  return d.empty() ? SiteRef{} : d.back().site();
}

SiteRef SiteIndex::doorbell_site(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec || rec->sites.doorbells.empty()) return {};
  const auto& d = rec->sites.doorbells;
  for (size_t i = d.size(); i-- > 0;)
    if (d[i].value == producer_index) return d[i].site();
  return d.back().site();
}

int SiteIndex::doorbell_core(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return -1;
  const auto& d = rec->sites.doorbells;
  for (size_t i = d.size(); i-- > 0;)
    if (d[i].value == producer_index) return d[i].core;
  return -1;
}

}  // namespace symsim
