// Fresh anonymous pages taken by first-touch write faults or by MADV_POPULATE_WRITE in batches
// of B pages, and the same pages handed back with MADV_DONTNEED 4 pages a call (a slot, as
// store_zeros does; after B = 0 and 1) or 64 such ranges per process_madvise (after B >= 4): system and user CPU per page (getrusage), alternated in rounds
// (docs/performance.md, session 36, s36-sys).
//   cc -O2 bench/fault_populate_probe.c -o /tmp/fpp && /tmp/fpp 65536 3
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double cpu(int sys) {
  struct rusage r; getrusage(RUSAGE_SELF, &r);
  struct timeval t = sys ? r.ru_stime : r.ru_utime;
  return t.tv_sec + t.tv_usec * 1e-6;
}
int main(int argc, char** argv) {
  const size_t pages = argc > 1 ? atol(argv[1]) : 65536, P = 4096;
  const int rounds = argc > 2 ? atoi(argv[2]) : 3;
  const size_t batches[] = {0, 1, 4, 16, 256};  // 0: faults
  for (int r = 0; r < rounds; ++r)
    for (size_t bi = 0; bi < sizeof batches / sizeof *batches; ++bi) {
      const size_t B = batches[bi];
      char* m = mmap(0, pages * P, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      madvise(m, pages * P, MADV_NOHUGEPAGE);
      double s0 = cpu(1), u0 = cpu(0);
      if (B == 0) for (size_t i = 0; i < pages; ++i) m[i * P] = 1;
      else for (size_t i = 0; i < pages; i += B) { madvise(m + i * P, B * P, MADV_POPULATE_WRITE); for (size_t j = i; j < i + B; ++j) m[j * P] = 1; }
      double s1 = cpu(1), u1 = cpu(0);
      // hand back: one madvise per 4 pages (a slot), against 64 slots per process_madvise
      if (B == 0 || B == 1) for (size_t i = 0; i < pages; i += 4) madvise(m + i * P, 4 * P, MADV_DONTNEED);
      else {
        int pidfd = syscall(SYS_pidfd_open, getpid(), 0);
        struct iovec v[64]; size_t n = 0;
        for (size_t i = 0; i < pages; i += 4) { v[n].iov_base = m + i * P; v[n].iov_len = 4 * P; if (++n == 64) { syscall(SYS_process_madvise, pidfd, v, n, MADV_DONTNEED, 0); n = 0; } }
        if (n) syscall(SYS_process_madvise, pidfd, v, n, MADV_DONTNEED, 0);
        close(pidfd);
      }
      double s2 = cpu(1);
      printf("round %d batch %3zu: take sys %.3f us/page user %.3f | drop(%s) sys %.3f us/page\n", r, B,
             (s1 - s0) * 1e6 / pages, (u1 - u0) * 1e6 / pages, (B <= 1 ? "madvise/4p" : "pmadv 64x4p"), (s2 - s1) * 1e6 / pages);
      munmap(m, pages * P);
    }
}
