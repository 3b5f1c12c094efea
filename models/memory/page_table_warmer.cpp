#include "models/memory/page_table_warmer.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22  // Linux 5.14
#endif

namespace symsim {
namespace page_table_warmer {

namespace {

constexpr uintptr_t kPageBytes = 4096;
constexpr uintptr_t kSpanBytes = uintptr_t{2} << 20;  // what one page table maps (x86-64, 4 KiB pages)
// Addresses taken from the queue at once: the lock is not held while the kernel works.
constexpr size_t kBatch = 256;

struct Warmer {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable idle;
  std::deque<uintptr_t> queue;
  bool busy = false;   // the helper holds a batch
  pid_t owner = 0;     // the process whose thread this is (a forked child starts its own)
  uintptr_t last_span = ~uintptr_t{0};  // of the last address queued: rings smaller than a span share one
  std::atomic<uint64_t> asked{0}, made{0}, found_mapped{0}, dropped{0}, system_us{0};
};

Warmer* g_warmer = nullptr;  // never destroyed: the helper may still run while statics go

bool enabled_from_env() {
  const char* text = std::getenv("SYMSIM_PT_WARM");
  if (!text || !*text || std::strcmp(text, "1") == 0) return true;
  if (std::strcmp(text, "0") == 0) return false;
  std::fprintf(stderr, "symsim: environment variable SYMSIM_PT_WARM: '%s' is neither 0 nor 1\n", text);
  std::exit(2);
}

void print_stats() {
  const Stats s = stats();
  std::fprintf(stderr,
               "symsim: page-table warmer: %llu asked, %llu not mapped when reached, %llu mapped first by the "
               "simulation, %llu dropped; %.2f s system on its thread\n",
               static_cast<unsigned long long>(s.asked), static_cast<unsigned long long>(s.made),
               static_cast<unsigned long long>(s.found_mapped), static_cast<unsigned long long>(s.dropped),
               s.thread_system_s);
}

void run(Warmer* w) {
  std::vector<uintptr_t> batch;
  batch.reserve(kBatch);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(w->mutex);
      w->busy = false;
      w->idle.notify_all();
      w->wake.wait(lock, [w] { return !w->queue.empty(); });
      w->busy = true;
      while (!w->queue.empty() && batch.size() < kBatch) {
        batch.push_back(w->queue.front());
        w->queue.pop_front();
      }
    }
    for (const uintptr_t page : batch) {
      // On a watched region: EFAULT once the table is made (the page is missing, userfaultfd
      // answers SIGBUS, which a populate call reports as EFAULT); 0 when the page is mapped.
      if (madvise(reinterpret_cast<void*>(page), kPageBytes, MADV_POPULATE_READ) == 0) ++w->found_mapped;
      else if (errno == EFAULT) ++w->made;
    }
    batch.clear();
    rusage r{};
    if (getrusage(RUSAGE_THREAD, &r) == 0)
      w->system_us = static_cast<uint64_t>(r.ru_stime.tv_sec) * 1000000 + static_cast<uint64_t>(r.ru_stime.tv_usec);
  }
}

// The warmer of this process, its thread started.
Warmer* warmer() {
  const pid_t pid = getpid();
  if (g_warmer && g_warmer->owner == pid) return g_warmer;
  const bool first = g_warmer == nullptr;
  g_warmer = new Warmer;  // after fork: the parent's (its lock perhaps held by a thread gone here) is left
  g_warmer->owner = pid;
  // Signals stay with the simulation thread (the cold-page store's SIGBUS, the runner's SIGINT).
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  std::thread(run, g_warmer).detach();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (first) {
    const char* stats = std::getenv("SYMSIM_COLD_PAGES_STATS");
    if (stats && std::strcmp(stats, "1") == 0) std::atexit(print_stats);
  }
  return g_warmer;
}

}  // namespace

bool enabled() {
  static const bool on = enabled_from_env();
  return on;
}

void warm(const void* addr) {
  if (!enabled()) return;
  Warmer* w = warmer();
  const auto page = reinterpret_cast<uintptr_t>(addr) & ~(kPageBytes - 1);
  std::lock_guard<std::mutex> lock(w->mutex);
  if (page / kSpanBytes == w->last_span) return;
  w->last_span = page / kSpanBytes;
  ++w->asked;
  const bool was_empty = w->queue.empty();
  w->queue.push_back(page);
  if (was_empty) w->wake.notify_one();
}

void drop_pending() {
  if (!g_warmer || g_warmer->owner != getpid()) return;
  std::lock_guard<std::mutex> lock(g_warmer->mutex);
  g_warmer->dropped += g_warmer->queue.size();
  g_warmer->queue.clear();
  g_warmer->last_span = ~uintptr_t{0};
}

void wait_idle() {
  if (!g_warmer || g_warmer->owner != getpid()) return;
  std::unique_lock<std::mutex> lock(g_warmer->mutex);
  g_warmer->idle.wait(lock, [] { return g_warmer->queue.empty() && !g_warmer->busy; });
}

Stats stats() {
  Stats s;
  if (!g_warmer) return s;
  s.asked = g_warmer->asked;
  s.made = g_warmer->made;
  s.found_mapped = g_warmer->found_mapped;
  s.dropped = g_warmer->dropped;
  s.thread_system_s = static_cast<double>(g_warmer->system_us) * 1e-6;
  return s;
}

}  // namespace page_table_warmer
}  // namespace symsim
