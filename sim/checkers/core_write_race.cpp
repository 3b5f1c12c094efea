// core_write_race: two AIV cores of a PE writing overlapping GM between two cross-core
// synchronisations (aclshmemx_barrier_all_vec, or the kernel boundary) leave the bytes to
// whichever lands last.
#include <fmt/format.h>

#include "checkers/checkers.h"

namespace symsim {

namespace {
constexpr size_t kKeptWrites = 4096;
}

void CoreWriteRaceChecker::on_block_start(int pe, int, const char*, Ps) {
  if (m_running[pe]++ == 0) m_writes[pe].clear();
}

void CoreWriteRaceChecker::on_block_end(int pe, int, const char*, Ps) { --m_running[pe]; }

void CoreWriteRaceChecker::on_device_barrier(Ps) { m_writes.clear(); }

void CoreWriteRaceChecker::on_copy(const CopyRecord& c) {
  if (m_ctx.in_unified_buffer(c.dst) || m_ctx.in_queue_ring(c.dst)) return;
  std::vector<CopyRecord>& writes = m_writes[c.pe];
  for (const CopyRecord& w : writes) {
    if (w.core == c.core || w.dst >= c.dst + c.bytes || c.dst >= w.dst + w.bytes) continue;
    Hazard h;
    h.id = "core_write_race";
    h.pe = c.pe;
    h.core = c.core;
    h.addr = m_ctx.addr(std::max(w.dst, c.dst));
    h.time_ps = c.issue_ps;
    h.site = site_text(c.site);
    h.detail = fmt::format(
        "AIV core {} writes GM bytes that AIV core {} also wrote{} since the last cross-core barrier: which bytes "
        "remain depends on timing (give each core its own slice, or synchronise)",
        c.core, w.core, at_site(w.site));
    m_ctx.log.report(std::move(h));
    break;
  }
  writes.push_back(c);
  if (writes.size() > kKeptWrites) writes.erase(writes.begin());
}

}  // namespace symsim
