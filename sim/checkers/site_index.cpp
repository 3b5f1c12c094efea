#include "sim/checkers/site_index.h"

#include <algorithm>

#include "sim/checkers/qp_record.h"

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

void SiteIndex::on_post(const PostRecord& p, QpRecord& rec) {
  auto& posts = rec.sites.posts;
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

void SiteIndex::on_bell_store(uint32_t value, int core, Ps t, SiteRef site, QpRecord& rec) {
  auto& d = rec.sites.doorbells;
  d.push_back({value, core, site, t});
  bound(d);
}

const SiteIndex::Doorbell* SiteIndex::last_doorbell(const QpRef& q) const {
  const QpRecord* rec = m_qps.find(q);
  return rec && !rec->sites.doorbells.empty() ? &rec->sites.doorbells.back() : nullptr;
}

SiteRef SiteIndex::site_of(const QpRef& q, uint32_t wqe) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return {};
  const auto& posts = rec->sites.posts;
  const auto it = std::lower_bound(posts.begin(), posts.end(), wqe,
                                   [](const auto& p, uint32_t w) { return static_cast<int32_t>(p.first - w) < 0; });
  if (it != posts.end() && it->first == wqe) return it->second;
  const auto* d = &rec->sites.doorbells;
  // The first doorbell whose producer index covers the WQE (indices are monotonic mod 2^32).
  for (const Doorbell& b : *d)
    if (static_cast<int32_t>(b.value - wqe) > 0) return b.site;
  return d->empty() ? SiteRef{} : d->back().site;
}

SiteRef SiteIndex::doorbell_site(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  const auto* d = rec ? &rec->sites.doorbells : nullptr;
  if (!d || d->empty()) return {};
  for (auto it = d->rbegin(); it != d->rend(); ++it)
    if (it->value == producer_index) return it->site;
  return d->back().site;
}

int SiteIndex::doorbell_core(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return -1;
  const auto* d = &rec->sites.doorbells;
  for (auto it = d->rbegin(); it != d->rend(); ++it)
    if (it->value == producer_index) return it->core;
  return -1;
}

}  // namespace symsim
