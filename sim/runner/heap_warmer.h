// Faults the malloc heap's new huge pages in on a helper thread, ahead of the simulation. On the
// huge heap (huge_heap.h) every 2 MiB the heap grows is a huge page cleared from memory new to
// the process: about 545 at EP 256, 4 s of the simulation thread's system time on this VM
// (docs/performance.md, Sessions 26-27). glibc grows the heap in steps of at least its top pad,
// which the big runs' second start sets (32 MiB); the helper sees the break move (sbrk(0)) and
// populates the new top with MADV_POPULATE_WRITE, so the simulation mostly finds its new heap
// pages there. Nothing is written: populating faults pages in as zero, and only memory that malloc
// holds as free top is ever asked for. SYMSIM_HEAP_WARM=0 keeps the thread off (the tunables stay);
// SYMSIM_COLD_PAGES_STATS=1 prints its counts at exit.
#pragma once

namespace symsim {

// Starts the helper when this start's GLIBC_TUNABLES carries the top pad reexec_with_huge_heap
// sets for big runs (kHeapWarmTunables) and the arguments name a big run (a child that inherits
// the variable for a small one starts none), unless SYMSIM_HEAP_WARM=0. Call once, early in main().
void start_heap_warmer(char* argv[]);

// From this many PEs on (run_pes, huge_heap.h) a run's second start gets the top pad and the helper.
inline constexpr int kHeapWarmMinPes = 64;

// What the second start of a big run adds to GLIBC_TUNABLES: a 32 MiB top pad (the helper's lead),
// and the mmap and trim thresholds the dynamic ones reach anyway (a top pad turns them off).
inline constexpr const char* kHeapWarmTunables =
    "glibc.malloc.top_pad=33554432:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864";

}  // namespace symsim
