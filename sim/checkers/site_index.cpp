#include "sim/checkers/site_index.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/checkers/qp_record.h"

namespace symsim {

void SiteIndex::repost(const PostRecord& p, QpSites& mine) {
  // Not after the last one (a re-post of an index): keep the newest site for it.
  for (size_t i = mine.post_count(); i-- > 0;)
    if (mine.post_wqe(i) == p.wqe_index) return post_slowly(mine.post_head() + static_cast<uint32_t>(i), p.site.pc, p.wqe_index, mine);
  push_slot(mine.posts, mine.post_full, mine.post_tail, p.wqe_index, mine);
  post_slowly(mine.post_tail - 1, p.site.pc, p.wqe_index, mine);
}

template <typename Whole>
void SiteIndex::grow(BlockTimedRing<Whole>& ring, uint32_t tail, QpSites& mine) {
  ring.grow(0, tail);
  ring.set_all_bases(Ps{mine.pc_high} << 32);
}
template void SiteIndex::grow<SiteIndex::Post>(BlockTimedRing<Post>&, uint32_t, QpSites&);
template void SiteIndex::grow<SiteIndex::Doorbell>(BlockTimedRing<Doorbell>&, uint32_t, QpSites&);

namespace {
uint32_t high_bits(const void* pc) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(pc) >> 32); }
uint32_t low_bits(const void* pc) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(pc)); }
}  // namespace

// The record's first entry (the one ring holds one entry, the other none: neither ever empties
// again) sets pc_high, and so its ring's bases (set at its growth with the old pc_high).
static bool sets_pc_high(size_t mine_count, bool other_allocated) { return mine_count == 1 && !other_allocated; }

void SiteIndex::post_slowly(uint32_t seq, const void* pc, uint32_t wqe, QpSites& mine) {
  if (sets_pc_high(mine.post_count(), mine.doorbells.allocated())) {
    mine.pc_high = high_bits(pc);
    mine.posts.set_all_bases(Ps{mine.pc_high} << 32);
  }
  if (fits(pc, mine)) {
    mine.posts.slot(seq).ps_offset = low_bits(pc);
  } else {
    mine.posts.keep_whole(seq, Post{pc, wqe}, mine.post_head(), mine.post_tail);
  }
}

void SiteIndex::bell_slowly(const void* pc, uint32_t value, int core, QpSites& mine) {
  const uint32_t seq = mine.bell_tail - 1;
  if (sets_pc_high(mine.bell_count(), mine.posts.allocated())) {
    mine.pc_high = high_bits(pc);
    mine.doorbells.set_all_bases(Ps{mine.pc_high} << 32);
  }
  if (mine.bell_count() == 1) mine.bell_core = core;  // the first store (the ring never empties again)
  if (fits(pc, mine) && core == mine.bell_core) {
    mine.doorbells.slot(seq).ps_offset = low_bits(pc);
  } else {
    mine.doorbells.keep_whole(seq, Doorbell{pc, value, core}, mine.bell_head(), mine.bell_tail);
  }
}

SiteIndex::Post SiteIndex::QpSites::post(size_t i) const {
  const uint32_t seq = post_head() + static_cast<uint32_t>(i);
  if (posts.kept_whole(seq)) return posts.whole(seq);
  return Post{reinterpret_cast<const void*>(static_cast<uintptr_t>(posts.time(seq))), posts.slot(seq).value};
}

SiteIndex::Doorbell SiteIndex::QpSites::doorbell(size_t i) const {
  const uint32_t seq = bell_head() + static_cast<uint32_t>(i);
  if (doorbells.kept_whole(seq)) return doorbells.whole(seq);
  return Doorbell{reinterpret_cast<const void*>(static_cast<uintptr_t>(doorbells.time(seq))),
                  doorbells.slot(seq).value, bell_core};
}

void SiteIndex::pc_only_site(const SiteRef& s) {
  throw std::logic_error(fmt::format("internal: a post or doorbell store named its call site by file ({}:{}); the "
                                     "call-site index keeps return addresses only (site_index.h)",
                                     s.file, s.line));
}

std::optional<SiteIndex::StoredDoorbell> SiteIndex::last_doorbell(const QpRef& q) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec || rec->sites.bell_count() == 0) return std::nullopt;
  const Doorbell d = rec->sites.doorbell(rec->sites.bell_count() - 1);
  return StoredDoorbell{d.value, rec->sites.last_doorbell_ps, d.site()};
}

SiteRef SiteIndex::site_of(const QpRef& q, uint32_t wqe) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return {};
  const auto& s = rec->sites;
  // The first post not before `wqe` (indices increase, mod 2^32).
  size_t lo = 0, hi = s.post_count();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (static_cast<int32_t>(s.post_wqe(mid) - wqe) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < s.post_count() && s.post_wqe(lo) == wqe) return s.post(lo).site();
  // The first doorbell whose producer index covers the WQE (indices are monotonic mod 2^32).
  const size_t n = s.bell_count();
  for (size_t i = 0; i < n; ++i)
    if (static_cast<int32_t>(s.bell_value(i) - wqe) > 0) return s.doorbell(i).site();
  return n == 0 ? SiteRef{} : s.doorbell(n - 1).site();
}

SiteRef SiteIndex::doorbell_site(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec || rec->sites.bell_count() == 0) return {};
  const auto& s = rec->sites;
  for (size_t i = s.bell_count(); i-- > 0;)
    if (s.bell_value(i) == producer_index) return s.doorbell(i).site();
  return s.doorbell(s.bell_count() - 1).site();
}

int SiteIndex::doorbell_core(const QpRef& q, uint32_t producer_index) const {
  const QpRecord* rec = m_qps.find(q);
  if (!rec) return -1;
  const auto& s = rec->sites;
  for (size_t i = s.bell_count(); i-- > 0;)
    if (s.bell_value(i) == producer_index) return s.doorbell(i).core;
  return -1;
}

}  // namespace symsim
