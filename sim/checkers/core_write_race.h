#pragma once
#include <cstdint>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "models/core/page_multimap.h"

namespace symsim {

inline constexpr HazardId kCoreWriteRace{"core_write_race", "two cores stored to overlapping GM with no synchronisation"};

// core_write_race: two cores of a PE write overlapping GM between two barriers; `observed`
// when both writes were in flight at once this run.
class CoreWriteRaceChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_device_barrier(Ps t) override;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);

 private:
  struct Write {
    const uint8_t* begin;
    const uint8_t* end;
    int core;
    uint64_t seq;  // order of the writes, to name the earliest conflicting one
    SiteRef site;
    Ps issue_ps, visible_ps;  // in flight from issue until visible
  };
  // A PE's GM writes since the last barrier, each kept once and filed by index under every 4 KiB
  // page it touches (a token row spans 2-4 pages: an index per page, not a copy of the write).
  struct PeWrites {
    std::vector<Write> writes;
    PageMultimap<uint32_t> pages;
    uint64_t seq = 0;
  };
  // Out of line: the report's Hazard and strings would otherwise widen on_copy's stack frame, whose
  // lines every copy touches on a coroutine stack gone cold (docs/performance.md, s28-ep).
  [[gnu::cold, gnu::noinline]] void report(const CopyRecord& c, const Write& conflict, const uint8_t* begin);
  std::vector<int> m_running;      // blocks running, by PE
  std::vector<PeWrites> m_writes;  // by PE
};

}  // namespace symsim
