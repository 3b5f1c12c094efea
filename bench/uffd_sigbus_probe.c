// A userfaultfd (SIGBUS mode) page restored at its fault by UFFDIO_COPY in the handler (as
// models/memory/cold_pages.cpp does), against the same pages mapped ahead by UFFDIO_COPY with no
// fault: system/user CPU per page, one page per 2 MiB as the SQ/CQ rings (docs/performance.md,
// session 36, s36-sys).
//   cc -O2 bench/uffd_sigbus_probe.c -o /tmp/usp && /tmp/usp 65536
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
static int uffd; static char page[4096] __attribute__((aligned(4096)));
static double cpu(int sys) { struct rusage r; getrusage(RUSAGE_SELF, &r); struct timeval t = sys ? r.ru_stime : r.ru_utime; return t.tv_sec + t.tv_usec * 1e-6; }
static void h(int s, siginfo_t* i, void* c) {
  struct uffdio_copy cp = {.dst = (unsigned long)i->si_addr & ~4095UL, .src = (unsigned long)page, .len = 4096};
  if (ioctl(uffd, UFFDIO_COPY, &cp)) abort();
}
int main(int argc, char** argv) {
  const size_t n = argc > 1 ? atol(argv[1]) : 65536, stride = 512;  // one page per 2 MiB, like the rings
  uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
  struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_SIGBUS};
  if (ioctl(uffd, UFFDIO_API, &api)) return 1;
  struct sigaction sa = {0}; sa.sa_sigaction = h; sa.sa_flags = SA_SIGINFO; sigaction(SIGBUS, &sa, 0);
  memset(page, 1, 64);
  char* m = mmap(0, n * stride * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  struct uffdio_register reg = {.range = {(unsigned long)m, n * stride * 4096}, .mode = UFFDIO_REGISTER_MODE_MISSING};
  if (ioctl(uffd, UFFDIO_REGISTER, &reg)) return 2;
  for (int r = 0; r < 4; ++r) {
    for (int mode = 0; mode < 2; ++mode) {
      double s0 = cpu(1), u0 = cpu(0); volatile long sum = 0;
      if (mode == 0) for (size_t i = 0; i < n; ++i) sum += m[i * stride * 4096];
      else for (size_t i = 0; i < n; ++i) { struct uffdio_copy cp = {.dst = (unsigned long)(m + i * stride * 4096), .src = (unsigned long)page, .len = 4096}; ioctl(uffd, UFFDIO_COPY, &cp); sum += m[i * stride * 4096]; }
      double s1 = cpu(1), u1 = cpu(0);
      madvise(m, n * stride * 4096, MADV_DONTNEED);  // all handed back: the next mode starts from missing pages
      printf("round %d %s: sys %.3f us/page user %.3f us/page\n", r, mode ? "copy ahead, no fault" : "SIGBUS + copy", (s1 - s0) * 1e6 / n, (u1 - u0) * 1e6 / n);
    }
  }
}
