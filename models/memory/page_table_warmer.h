// Makes page tables ahead of use, on a helper thread. Each UDMA SQ/CQ ring is 2 MiB of address
// space (32,768 x 64 B, the spec's depth) touched on its first page, so each costs a page table of
// its own: 262,144 at EP 256 (1 GiB), which the kernel clears from memory new to the process
// (about 11-15 us a table on this VM against about 1 us for a recycled one; docs/performance.md,
// Session 27). No layout avoids them: rings are disjoint 2 MiB ranges, so their first pages lie in
// distinct 2 MiB spans. What can change is which thread pays: `MADV_POPULATE_READ` on a page of
// a region the cold-page store watches (userfaultfd, missing mode, SIGBUS) allocates the span's
// page table and then fails with EFAULT, mapping nothing and raising nothing, so the simulation
// thread later finds the table made. Nothing anyone reads changes: no page is mapped, and on a
// region not watched the call would at most map the zero page where the memory reads zero anyway.
// SYMSIM_PT_WARM=0 turns it off; SYMSIM_COLD_PAGES_STATS=1 prints its counts at exit.
#pragma once
#include <cstdint>

namespace symsim {

namespace page_table_warmer {

// Queues the page table covering `addr` (a page of a watched region not touched yet). The helper
// thread starts on the first call.
void warm(const void* addr);
// Forgets what is queued (a watched region is about to go). A call already under way may still
// run: it only asks the kernel for a table, which is harmless wherever the address now lies.
void drop_pending();
// False when SYMSIM_PT_WARM=0 (then warm() does nothing).
bool enabled();
// Returns once the queue is empty and no call is under way (tests).
void wait_idle();

struct Stats {
  uint64_t asked = 0;       // addresses queued
  uint64_t made = 0;        // of those, the helper found not mapped (a table made, or there already)
  uint64_t found_mapped = 0;  // the simulation thread had mapped the page first
  uint64_t dropped = 0;     // forgotten by drop_pending
  double thread_system_s = 0;  // the helper thread's own CPU time in the kernel
};
Stats stats();

}  // namespace page_table_warmer

}  // namespace symsim
