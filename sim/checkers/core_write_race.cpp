// core_write_race: two AIV cores of a PE writing overlapping GM between two cross-core
// synchronisations (aclshmemx_barrier_all_vec, or the kernel boundary) leave the bytes to
// whichever lands last. Judged by that ordering, not by timing: reported whether or not the
// two writes were in flight at once this run (`observed`).
#include <fmt/format.h>

#include <algorithm>

#include "sim/checkers/core_write_race.h"
#include "models/platform/ascend_system.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(CoreWriteRaceChecker, "core_write_race", 180, "two cores of a PE write overlapping GM between two barriers", kCoreWriteRace);

void CoreWriteRaceChecker::on_block_start(int pe, int, const char*, Ps) {
  if (m_writes.empty()) {
    m_writes.resize(static_cast<size_t>(m_ctx.sys.n_pes()));
    m_running.assign(m_writes.size(), 0);
  }
  if (m_running[pe]++ == 0) m_writes[pe] = PeWrites{};
}

void CoreWriteRaceChecker::on_block_end(int pe, int, const char*, Ps) { --m_running[pe]; }

void CoreWriteRaceChecker::on_device_barrier(Ps) {
  for (PeWrites& w : m_writes) w = PeWrites{};
}

void CoreWriteRaceChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (c.bytes == 0 || m_writes.empty() || at.dst.unified_buffer || at.dst.ring_pe >= 0) return;
  if (c.atomic_add) return;  // atomic adds from several cores all count, in any order
  PeWrites& pe = m_writes[c.pe];
  const uint8_t* begin = c.dst;
  const uint8_t* end = c.dst + c.bytes;
  const uint64_t first = PageMultimap<uint32_t>::page_of(begin);
  const uint64_t last = PageMultimap<uint32_t>::page_of(end - 1);
  Write conflict{};  // the earliest write of another core overlapping this one
  bool found = false;
  for (uint64_t page = first; page <= last; ++page)
    pe.pages.for_each(page, [&](uint32_t i) {
      const Write& w = pe.writes[i];
      if (w.core != c.core && w.begin < end && begin < w.end && (!found || w.seq < conflict.seq)) {
        conflict = w;
        found = true;
      }
    });
  if (found) report(c, conflict, begin);
  const Write w{begin, end, c.core, pe.seq++, c.site, c.issue_ps, std::max(c.issue_ps, c.visible_ps)};
  // A core rewriting the same bytes (a buffer cleared or refilled in a loop) keeps one record; such
  // a record is filed under the same pages as this write, so its first page is enough to look at.
  bool same = false;
  pe.pages.for_each(first, [&](uint32_t i) {
    const Write& o = pe.writes[i];
    same = same || (o.core == w.core && o.begin == begin && o.end == end);
  });
  if (same) return;
  const auto index = static_cast<uint32_t>(pe.writes.size());
  pe.writes.push_back(w);
  for (uint64_t page = first; page <= last; ++page) pe.pages.insert(page, index);
}

void CoreWriteRaceChecker::report(const CopyRecord& c, const Write& conflict, const uint8_t* begin) {
  Hazard h = m_ctx.at_copy(kCoreWriteRace, c, std::max(conflict.begin, begin));
  // Observed: both copies were in flight at once, so either could land last this run.
  h.observed = conflict.issue_ps <= c.visible_ps && c.issue_ps <= conflict.visible_ps;
  const std::string edge = fmt::format("no cross-core barrier between AIV core {}'s write and AIV core {}'s",
                                       conflict.core, c.core);
  h.detail = h.observed
                 ? fmt::format("AIV core {} writes GM bytes that AIV core {} also wrote{} since the last cross-core "
                               "barrier, and both were in flight at once: which bytes remain depends on timing; {} "
                               "(give each core its own slice, or synchronise)",
                               c.core, conflict.core, at_site(conflict.site), edge)
                 : fmt::format("AIV core {} writes GM bytes that AIV core {} also wrote{} since the last cross-core "
                               "barrier; core {}'s write was visible at {}, before this one was issued at {}, only "
                               "by timing: {} (give each core its own slice, or synchronise)",
                               c.core, conflict.core, at_site(conflict.site), conflict.core,
                               us_text(conflict.visible_ps), us_text(c.issue_ps), edge);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
