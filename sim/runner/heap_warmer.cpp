#include "sim/runner/heap_warmer.h"

#include "sim/runner/huge_heap.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace symsim {

namespace {

constexpr uintptr_t kHugeBytes = uintptr_t{2} << 20;
// How often the helper looks at the break. It populates only up to where the break was one look
// before: glibc madvises a new top for huge pages just after moving the break, and a page faulted
// in before that would be a 4 KiB one.
constexpr useconds_t kLookEveryUs = 2000;

std::atomic<uint64_t> g_populated{0}, g_system_us{0};

void print_stats() {
  std::fprintf(stderr, "symsim: heap warmer: %llu MiB of new heap faulted in; %.2f s system on its thread\n",
               static_cast<unsigned long long>(g_populated.load() * (kHugeBytes >> 20)),
               static_cast<double>(g_system_us.load()) * 1e-6);
}

uintptr_t brk_now() { return reinterpret_cast<uintptr_t>(sbrk(0)); }  // no system call: glibc's copy

void run() {
  uintptr_t done = (brk_now() + kHugeBytes - 1) & ~(kHugeBytes - 1);  // the heap below is the simulation's
  uintptr_t seen = brk_now();
  for (;;) {
    usleep(kLookEveryUs);
    const uintptr_t now = brk_now();
    const uintptr_t upto = std::min(now, seen) & ~(kHugeBytes - 1);
    seen = now;
    if (now < done) done = now & ~(kHugeBytes - 1);  // trimmed: start again from the new top
    bool worked = false;
    for (; done + kHugeBytes <= upto; done += kHugeBytes) {
      // Free top as malloc sees it (the break moved past it a look ago): faulted in as zero.
      if (madvise(reinterpret_cast<void*>(done), kHugeBytes, MADV_POPULATE_WRITE) != 0) break;
      ++g_populated;
      worked = true;
    }
    if (worked) {
      rusage r{};
      if (getrusage(RUSAGE_THREAD, &r) == 0)
        g_system_us = static_cast<uint64_t>(r.ru_stime.tv_sec) * 1000000 + static_cast<uint64_t>(r.ru_stime.tv_usec);
    }
  }
}

bool enabled_from_env() {
  const char* text = std::getenv("SYMSIM_HEAP_WARM");
  if (!text || !*text || std::strcmp(text, "1") == 0) return true;
  if (std::strcmp(text, "0") == 0) return false;
  std::fprintf(stderr, "symsim: environment variable SYMSIM_HEAP_WARM: '%s' is neither 0 nor 1\n", text);
  std::exit(2);
}

}  // namespace

void start_heap_warmer(char* argv[]) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (!tunables || !std::strstr(tunables, kHeapWarmTunables) || run_pes(argv) < kHeapWarmMinPes) return;
  if (!enabled_from_env()) return;
  // Signals stay with the simulation thread.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  std::thread(run).detach();  // runs until the process exits
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  const char* stats = std::getenv("SYMSIM_COLD_PAGES_STATS");
  if (stats && std::strcmp(stats, "1") == 0) std::atexit(print_stats);
}

}  // namespace symsim
