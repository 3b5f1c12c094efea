// The simulator's own heap (checker state, the visibility queue, per-QP and per-core state:
// hundreds of MiB at EP 256, read in no order the cache or TLB can follow) on transparent huge
// pages. glibc's malloc does it when told at start-up (GLIBC_TUNABLES=glibc.malloc.hugetlb=1: it
// madvises what it takes from the system), and tunables are read only when a program starts, so
// the program executes itself once more with the variable set. Measured in docs/performance.md
// (Session 16: MoE at scale). GLIBC_TUNABLES=glibc.malloc.hugetlb=0 keeps the old heap.
#pragma once

namespace symsim {

// Call first thing in main(). Does not return when it re-executes; returns (changing nothing)
// for a small run (a scenario, named among the arguments, of fewer PEs than pays; no scenario),
// when the variable names the tunable already, under valgrind (the new program would run
// outside it), in sanitizer builds, where the host has no transparent huge pages or the C
// library is not a glibc that knows the tunable, or when the exec fails.
void reexec_with_huge_heap(char* argv[]);

// The number of PEs the run simulates, as the decision above reads it: the last "pes=N" argument
// (symsim's --set, the bench's PATH=VALUE), else the "pes" of the first argument that names a
// readable JSON scenario (a regular file of at most 4 MiB); 0 when neither says (no scenario; a
// FIFO, device or file that does not parse: the run reports that itself).
int run_pes(char* argv[]);

}  // namespace symsim
