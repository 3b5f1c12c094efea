// Keeps the resident pages of mostly-empty regions (the SQ/CQ rings: each QP's few WQEs and CQEs
// sit at the start of their own 4 KiB page) under a budget. Past the budget the oldest mapped page
// is evicted: its nonzero bytes are saved (a few hundred bytes for a ring page) and the page is
// handed back to the host. The next access to it, from any code, faults (userfaultfd, missing
// mode, reported as SIGBUS in the faulting thread) and the handler maps it again with the same
// bytes, so evicting changes no byte that anyone reads, only how many pages are resident.
// The budget is 16,384 pages, or up to 196,608 while the process's resident set is under 3,712 MiB.
// SYMSIM_COLD_PAGES=N fixes it at N (0: watch nothing); SYMSIM_COLD_PAGES_STATS=1 prints the
// counts below at exit.
// Where userfaultfd is not available (an old kernel, valgrind) a region is left as it is.
#pragma once
#include <cstdint>

namespace symsim {

namespace cold_pages {

// Starts watching [base, base + size) (page-aligned, a private anonymous mapping); false when the
// host cannot, and then nothing changes for the region.
bool watch(uint8_t* base, uint64_t size_bytes);
// Stops watching and forgets the saved bytes of the range (before it is unmapped).
void unwatch(uint8_t* base, uint64_t size_bytes);
// The caller is about to hand back [begin, begin + len) as zero (SparseRegion::store_zeros):
// saved bytes of evicted pages in the range are forgotten, so those pages read as zero again.
void forget(uint8_t* begin, uint64_t len);
// True if `p` lies in a watched region (whose missing pages may hold saved bytes).
bool watches(const void* p);

// Pages mapped at once in all watched regions before the oldest is evicted, fixed (tests set a
// few); 0 brings back the default, which follows the process's resident set. Returns the budget it
// replaces (0 for the default).
uint64_t set_budget_pages(uint64_t pages);

// What the store did so far (the process's totals).
struct Stats {
  uint64_t faults = 0;     // pages mapped by the handler
  uint64_t restored = 0;   // of those, pages mapped again with saved bytes
  uint64_t evicted = 0;    // pages handed back
  uint64_t saved_bytes = 0;  // bytes held for evicted pages now
};
Stats stats();

}  // namespace cold_pages

}  // namespace symsim
