#include "checkers/site_index.h"

namespace symsim {

namespace {
constexpr size_t kKeptPerQp = 4096;
}

void SiteIndex::on_wqe_post(const PostRecord& p) {
  auto& posts = m_posts[key(p.qp)];
  posts[p.wqe_index] = p.site;
  if (posts.size() > kKeptPerQp) posts.erase(posts.begin());
}

void SiteIndex::on_doorbell_store(const QpRef& q, bool cq, uint32_t value, int core, Ps, SiteRef site) {
  if (cq) return;
  auto& d = m_doorbells[key(q)];
  d.push_back({value, core, site});
  if (d.size() > kKeptPerQp) d.pop_front();
}

SiteRef SiteIndex::site_of(const QpRef& q, uint32_t wqe) const {
  const auto p = m_posts.find(key(q));
  if (p != m_posts.end()) {
    const auto it = p->second.find(wqe);
    if (it != p->second.end()) return it->second;
  }
  const auto d = m_doorbells.find(key(q));
  if (d == m_doorbells.end()) return {};
  // The first doorbell whose producer index covers the WQE (indices are monotonic mod 2^32).
  for (const Doorbell& b : d->second)
    if (static_cast<int32_t>(b.value - wqe) > 0) return b.site;
  return d->second.empty() ? SiteRef{} : d->second.back().site;
}

SiteRef SiteIndex::doorbell_site(const QpRef& q, uint32_t producer_index) const {
  const auto d = m_doorbells.find(key(q));
  if (d == m_doorbells.end() || d->second.empty()) return {};
  for (auto it = d->second.rbegin(); it != d->second.rend(); ++it)
    if (it->value == producer_index) return it->site;
  return d->second.back().site;
}

int SiteIndex::doorbell_core(const QpRef& q, uint32_t producer_index) const {
  const auto d = m_doorbells.find(key(q));
  if (d == m_doorbells.end()) return -1;
  for (auto it = d->second.rbegin(); it != d->second.rend(); ++it)
    if (it->value == producer_index) return it->core;
  return -1;
}

}  // namespace symsim
