// gm_out_of_bounds: every GM byte a copy or a DMA touches must lie inside one allocation
// (aclshmem_malloc, aclrtMalloc, SHMEM's own tables) or a registered region (SQ/CQ rings),
// checked per allocation: running off the end of one buffer into its neighbour counts.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "sim/checkers/gm_out_of_bounds.h"
#include "models/ascend/wqe_layout.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(GmOutOfBoundsChecker, "gm_out_of_bounds", 160, "a copy or DMA outside every allocation and registered region", kGmOutOfBounds);

namespace {
bool begins_before(const uint8_t* p, const GmOutOfBoundsChecker::Alloc& a) { return p < a.begin; }
}  // namespace

void GmOutOfBoundsChecker::on_alloc(int, const char* kind, const uint8_t* p, uint64_t bytes) {
  if (p && bytes) {
    auto it = std::upper_bound(m_allocs.begin(), m_allocs.end(), p, begins_before);
    if (it != m_allocs.begin() && std::prev(it)->begin == p)
      *std::prev(it) = {p, p + bytes, kind};
    else
      m_allocs.insert(it, {p, p + bytes, kind});
  }
  if (m_recent.size()) m_recent.clear();  // an allocation replaced at the same start may have shrunk
}

bool GmOutOfBoundsChecker::probed(const uint8_t* p, uint64_t len) const {
  const Spans* s = m_recent.find(granule_of(p));
  return s && s->hold(p, len);
}

bool GmOutOfBoundsChecker::inside(const uint8_t* p, uint64_t len, std::string* near) const {
  if (probed(p, len)) return true;
  auto it = std::upper_bound(m_allocs.begin(), m_allocs.end(), p, begins_before);
  if (it != m_allocs.begin() && p + len <= std::prev(it)->end) {
    const Spans* had = m_recent.find(granule_of(p));
    m_recent.set(granule_of(p), {{std::prev(it)->begin, std::prev(it)->end}, had ? had->newest : Span{}});
    return true;
  }
  if (m_ctx.in_queue_ring(p) && m_ctx.in_queue_ring(p + (len ? len - 1 : 0))) return true;
  if (it == m_allocs.begin()) {
    if (near) *near = "no allocation starts at or before it";
    return false;
  }
  --it;
  if (near)
    *near = fmt::format("the nearest allocation ({}, {} bytes at {}) ends at {}", it->kind, it->end - it->begin,
                        m_ctx.addr(it->begin), m_ctx.addr(it->end));
  return false;
}

void GmOutOfBoundsChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  for (const CheckerContext::Where* w : {&at.src, &at.dst}) {
    const auto* p = static_cast<const uint8_t*>(w->p);
    if (cached(p, c.bytes) || w->unified_buffer || inside(p, c.bytes, nullptr)) continue;
    report_copy(c, p);
  }
}

void GmOutOfBoundsChecker::report_copy(const CopyRecord& c, const uint8_t* p) {
  std::string near;
  inside(p, c.bytes, &near);
  Hazard h = m_ctx.at_copy(kGmOutOfBounds, c, p);
  h.detail = fmt::format("a copy {} {} GM bytes at {} outside every allocation: {}", p == c.src ? "reads" : "writes",
                         c.bytes, h.addr, near);
  m_ctx.log.report(std::move(h));
}

void GmOutOfBoundsChecker::check(const WqeRecord& r, uint64_t local_len, uint64_t remote_len) {
  struct Side {
    uint64_t va;
    uint64_t len;
    const char* what;
  } sides[] = {{r.local_va, local_len, "local"}, {r.remote_va, remote_len, "remote"}};
  for (const Side& s : sides) {
    const auto* p = reinterpret_cast<const uint8_t*>(s.va);
    if (s.len == 0 || cached(p, s.len) || inside(p, s.len, nullptr)) continue;
    report_wqe(r, s.va, s.len, s.what);
  }
}

void GmOutOfBoundsChecker::report_wqe(const WqeRecord& r, uint64_t va, uint64_t len, const char* what) {
  std::string near;
  inside(reinterpret_cast<const uint8_t*>(va), len, &near);
  Hazard h = m_ctx.at_wqe(kGmOutOfBounds, r.qp, r.wqe_index, r.fetch_ps);
  h.addr = m_ctx.addr(va);
  h.detail = fmt::format("WQE {} ({} of {} bytes) has its {} range of {} bytes at {} outside every allocation: {}",
                         r.wqe_index, opcode_text(r.opcode), r.bytes, what, len, h.addr, near);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
