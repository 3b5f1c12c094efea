// What a second thread of the process costs the first one's TLB flushes (docs/performance.md,
// session 37): N times, a page written and handed back with madvise(MADV_DONTNEED) (as
// SparseRegion::store_zeros does, about once a WQE at EP 256), with the other thread asleep
// (usleep: its core leaves the process's address space) and then busy (plain arithmetic: its core
// stays in it, so every flush must reach it too), three rounds, then with the thread gone.
//   cc -O2 -pthread bench/helper_flush_probe.c -o /tmp/hfp && /tmp/hfp 200000
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop, busy;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double thread_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

static void* other(void* arg) {
  (void)arg;
  volatile unsigned long x = 0;
  while (!atomic_load(&stop)) {
    if (atomic_load(&busy)) x = x * 6364136223846793005ul + 1;
    else usleep(1000);
  }
  return NULL;
}

static void run(const char* name, char* pages, int n, int count) {
  const double t0 = now(), c0 = thread_cpu();
  for (int i = 0; i < n; i++) {
    char* p = pages + (size_t)(i % count) * 8192;  // every other page: no two in one range
    p[0] = 1;
    madvise(p, 4096, MADV_DONTNEED);
  }
  const double t1 = now(), c1 = thread_cpu();
  printf("%-30s %.3f us wall, %.3f us this thread's CPU a write + madvise\n", name, (t1 - t0) / n * 1e6,
         (c1 - c0) / n * 1e6);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 200000, count = 4096;
  char* pages = mmap(NULL, (size_t)count * 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) return 1;
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  for (int r = 0; r < 3; r++) {
    atomic_store(&busy, 0);
    usleep(20000);
    run("other thread asleep", pages, n, count);
    atomic_store(&busy, 1);
    usleep(20000);
    run("other thread busy", pages, n, count);
  }
  atomic_store(&stop, 1);
  pthread_join(t, NULL);
  run("other thread gone", pages, n, count);
  return 0;
}
