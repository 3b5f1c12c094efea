// core_write_race: two AIV cores of a PE writing overlapping GM between two cross-core
// synchronisations (aclshmemx_barrier_all_vec, or the kernel boundary) leave the bytes to
// whichever lands last.
#include <fmt/format.h>

#include <algorithm>

#include "checkers/checkers.h"

namespace symsim {

namespace {
constexpr uintptr_t kPageBytes = 4096;
}

void CoreWriteRaceChecker::on_block_start(int pe, int, const char*, Ps) {
  if (m_running[pe]++ == 0) m_writes[pe] = PeWrites{};
}

void CoreWriteRaceChecker::on_block_end(int pe, int, const char*, Ps) { --m_running[pe]; }

void CoreWriteRaceChecker::on_device_barrier(Ps) { m_writes.clear(); }

void CoreWriteRaceChecker::on_copy(const CopyRecord& c) {
  if (c.bytes == 0 || m_ctx.in_unified_buffer(c.dst) || m_ctx.in_queue_ring(c.dst)) return;
  PeWrites& pe = m_writes[c.pe];
  const uint8_t* begin = c.dst;
  const uint8_t* end = c.dst + c.bytes;
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) / kPageBytes;
  const uintptr_t last = (reinterpret_cast<uintptr_t>(end) - 1) / kPageBytes;
  const Write* conflict = nullptr;  // the earliest write of another core overlapping this one
  for (uintptr_t page = first; page <= last; ++page) {
    const auto it = pe.pages.find(page);
    if (it == pe.pages.end()) continue;
    for (const Write& w : it->second)
      if (w.core != c.core && w.begin < end && begin < w.end && (!conflict || w.seq < conflict->seq)) conflict = &w;
  }
  if (conflict) {
    Hazard h;
    h.id = "core_write_race";
    h.pe = c.pe;
    h.core = c.core;
    h.addr = m_ctx.addr(std::max(conflict->begin, begin));
    h.time_ps = c.issue_ps;
    h.site = site_text(c.site);
    h.detail = fmt::format(
        "AIV core {} writes GM bytes that AIV core {} also wrote{} since the last cross-core barrier: which bytes "
        "remain depends on timing (give each core its own slice, or synchronise)",
        c.core, conflict->core, at_site(conflict->site));
    m_ctx.log.report(std::move(h));
  }
  const Write w{begin, end, c.core, pe.seq++, c.site};
  for (uintptr_t page = first; page <= last; ++page) {
    std::vector<Write>& writes = pe.pages[page];
    // A core rewriting the same bytes (a buffer cleared or refilled in a loop) keeps one record.
    const auto same = std::find_if(writes.begin(), writes.end(),
                                   [&](const Write& o) { return o.core == w.core && o.begin == begin && o.end == end; });
    if (same != writes.end()) continue;
    writes.push_back(w);
  }
}

}  // namespace symsim
