#include "sim/checkers/site_index.h"

#include <algorithm>

namespace symsim {

namespace {
constexpr size_t kKeptPerQp = 4096;
}

namespace {
// Keeps the newest kKeptPerQp entries (dropping the oldest half at a time).
template <typename T>
void bound(std::vector<T>& v) {
  if (v.size() > 2 * kKeptPerQp) v.erase(v.begin(), v.end() - static_cast<std::ptrdiff_t>(kKeptPerQp));
}
}  // namespace

void SiteIndex::on_post(const PostRecord& p) {
  auto& posts = m_posts[p.qp];
  if (!posts.empty() && static_cast<int32_t>(p.wqe_index - posts.back().first) <= 0) {
    // Not after the last one (a re-post of an index): keep the newest site for it.
    for (auto it = posts.rbegin(); it != posts.rend(); ++it)
      if (it->first == p.wqe_index) {
        it->second = p.site;
        return;
      }
  }
  posts.emplace_back(p.wqe_index, p.site);
  bound(posts);
}

void SiteIndex::on_bell_store(const QpRef& q, uint32_t value, int core, Ps t, SiteRef site) {
  auto& d = m_doorbells[q];
  d.push_back({value, core, site, t});
  bound(d);
}

SiteRef SiteIndex::site_of(const QpRef& q, uint32_t wqe) const {
  if (const auto* posts = m_posts.find(q)) {
    const auto it = std::lower_bound(posts->begin(), posts->end(), wqe,
                                     [](const auto& p, uint32_t w) { return static_cast<int32_t>(p.first - w) < 0; });
    if (it != posts->end() && it->first == wqe) return it->second;
  }
  const auto* d = m_doorbells.find(q);
  if (!d) return {};
  // The first doorbell whose producer index covers the WQE (indices are monotonic mod 2^32).
  for (const Doorbell& b : *d)
    if (static_cast<int32_t>(b.value - wqe) > 0) return b.site;
  return d->empty() ? SiteRef{} : d->back().site;
}

SiteRef SiteIndex::doorbell_site(const QpRef& q, uint32_t producer_index) const {
  const auto* d = m_doorbells.find(q);
  if (!d || d->empty()) return {};
  for (auto it = d->rbegin(); it != d->rend(); ++it)
    if (it->value == producer_index) return it->site;
  return d->back().site;
}

int SiteIndex::doorbell_core(const QpRef& q, uint32_t producer_index) const {
  const auto* d = m_doorbells.find(q);
  if (!d) return -1;
  for (auto it = d->rbegin(); it != d->rend(); ++it)
    if (it->value == producer_index) return it->core;
  return -1;
}

}  // namespace symsim
