// Faults in the destination pages of scheduled writes on a helper thread, before they land. At
// EP 256 most payload (dispatch tokens, combine rows) lands on pages never touched or handed back
// by store_zeros, and the simulation thread took about 1.5 k of its ~3.5 k kernel samples in those
// faults (docs/performance.md, sessions 25-27). The helper asks the kernel for the pages with
// `MADV_POPULATE_WRITE` (Linux 5.14), which maps a missing page as a zeroed page and leaves a
// mapped one as it is: a populated page reads zero, as the page not yet mapped did, so no byte
// anyone reads changes, only which thread pays for the fault and when.
// Only accessible sparse regions not watched by the cold-page store are populated (a watched
// region's missing page may hold saved bytes). To bound the resident set, the pages populated for
// writes not yet due (by the simulation's time of the latest request) stay under a cap
// (kDefaultCapPages, SYMSIM_POPULATE_PAGES=N); a request already due when the helper reaches it is
// skipped (its write has landed, or is landing, on the simulation thread).
// SYMSIM_POPULATE=0 turns it off; SYMSIM_COLD_PAGES_STATS=1 prints its counts at exit.
#pragma once
#include <atomic>
#include <cstdint>

#include "models/core/time.h"

namespace symsim {

namespace page_populator {

constexpr uint64_t kDefaultCapPages = 16384;  // 64 MiB of pages ahead of their writes

// False when SYMSIM_POPULATE=0.
bool enabled();
// A simulation starts (its time from 0): the helper drops what it holds. Starts the helper.
void begin_run();
// From the simulation thread: the pages of [dst, dst + len) are written from `visible_ps` on; the
// simulation's time now is `now_ps`. The helper thread starts on the first call.
void ask(const uint8_t* dst, uint64_t len, Ps visible_ps, Ps now_ps);
// From the simulation thread: its time is `now_ps` (the queue settled part of a write of several
// units). Writes due by then have landed: their pages no longer count against the cap.
inline void advance(Ps now_ps);
// A region is about to change (unmapped, or watched by the cold-page store) and has been taken out
// of the populatable set: returns once no populate call that could still see it is under way.
void fence();
// Returns once every request asked so far has been populated, skipped, or held back by the cap
// (tests).
void wait_idle();
// Sets the cap in pages (tests); returns the one it replaces.
uint64_t set_cap_pages(uint64_t pages);

struct Stats {
  uint64_t asked = 0;            // requests
  uint64_t asked_pages = 0;
  uint64_t populated = 0;        // requests populated
  uint64_t populated_pages = 0;  // pages asked of the kernel (mapped ones included)
  uint64_t late = 0;             // skipped: due by the time the helper reached them
  uint64_t outside = 0;          // skipped: not in a populatable region
  uint64_t failed = 0;           // the kernel refused (a region gone meanwhile)
  uint64_t capped = 0;           // times the cap held the next request back
  uint64_t most_outstanding_pages = 0;  // the most pages populated ahead of their writes at once
  uint64_t helper_minor_faults = 0;  // the helper thread's own (the pages it mapped)
  double helper_system_s = 0;
};
Stats stats();

// advance(): a load and a store, on the simulation thread where a write of several units is
// settled in part; the helper reads the time when it looks.
extern std::atomic<Ps> g_now_ps;
inline void advance(Ps now_ps) {
  if (now_ps > g_now_ps.load(std::memory_order_relaxed)) g_now_ps.store(now_ps, std::memory_order_relaxed);
}

}  // namespace page_populator

}  // namespace symsim
