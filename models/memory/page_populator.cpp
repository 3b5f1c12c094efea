#include "models/memory/page_populator.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <utility>
#include <vector>

#include "models/memory/sparse_region.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace symsim {
namespace page_populator {

namespace {

constexpr uintptr_t kPageBytes = SparseRegion::kHostPageBytes;

struct Request {
  Ps visible_ps;
  uintptr_t first_page;  // address of the first page
  uint64_t pages;
  bool operator>(const Request& o) const { return visible_ps > o.visible_ps; }
};
using MinHeap = std::priority_queue<Request, std::vector<Request>, std::greater<Request>>;

struct Populator {
  // The inbox, filled by the simulation thread.
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable idle_cv;
  std::vector<Request> inbox;
  bool sleeping = false;  // the helper has nothing to do and waits for a request
  bool idle = true;       // sleeping with nothing it could do until more is asked (wait_idle)
  uint64_t run = 0;       // begin_run() so far: the helper forgets what it holds from an earlier run
  uint64_t cap_pages = kDefaultCapPages;
  uint64_t asked = 0, asked_pages = 0;  // under `mutex`
  // Held by the helper around each populate call (fence).
  std::mutex work;
  // Written by the helper only.
  std::atomic<uint64_t> populated{0}, populated_pages{0}, late{0}, outside{0}, failed{0}, capped{0},
      most_outstanding_pages{0};
  std::atomic<uint64_t> helper_minflt{0}, helper_system_us{0};
};

Populator* g_populator = nullptr;  // never destroyed: the helper may still run while statics go

}  // namespace

std::atomic<Ps> g_now_ps{0};

namespace {

bool enabled_from_env() {
  const char* text = std::getenv("SYMSIM_POPULATE");
  if (!text || !*text || std::strcmp(text, "1") == 0) return true;
  if (std::strcmp(text, "0") == 0) return false;
  std::fprintf(stderr, "symsim: environment variable SYMSIM_POPULATE: '%s' is neither 0 nor 1\n", text);
  std::exit(2);
}

uint64_t cap_from_env() {
  const char* text = std::getenv("SYMSIM_POPULATE_PAGES");
  if (!text || !*text) return kDefaultCapPages;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr, "symsim: environment variable SYMSIM_POPULATE_PAGES: '%s' is not a page count\n", text);
    std::exit(2);
  }
  return v;
}

// The simulation thread's own faults, read when the process exits (from the thread that calls exit).
void print_stats() {
  const Stats s = stats();
  rusage self{};
  getrusage(RUSAGE_THREAD, &self);
  std::fprintf(stderr,
               "symsim: page populator: %llu writes asked (%llu pages), %llu populated (%llu pages), %llu late, "
               "%llu outside, %llu refused; held by the cap %llu times, at most %llu pages ahead; helper: %llu minor "
               "faults, %.2f s system; exiting thread: %ld minor faults\n",
               static_cast<unsigned long long>(s.asked), static_cast<unsigned long long>(s.asked_pages),
               static_cast<unsigned long long>(s.populated), static_cast<unsigned long long>(s.populated_pages),
               static_cast<unsigned long long>(s.late), static_cast<unsigned long long>(s.outside),
               static_cast<unsigned long long>(s.failed), static_cast<unsigned long long>(s.capped),
               static_cast<unsigned long long>(s.most_outstanding_pages),
               static_cast<unsigned long long>(s.helper_minor_faults),
               s.helper_system_s, self.ru_minflt);
}

// The helper's view of the populatable regions, copied again whenever the set changes.
class Regions {
 public:
  bool contains(uintptr_t begin, uintptr_t end) {
    const uint64_t v = SparseRegion::populatable_version();
    if (v != m_version) {
      m_ranges = SparseRegion::populatable_ranges();
      m_version = v;
    }
    auto it = std::upper_bound(m_ranges.begin(), m_ranges.end(), std::make_pair(begin, UINTPTR_MAX));
    if (it == m_ranges.begin()) return false;
    --it;
    return begin >= it->first && end <= it->second;
  }

 private:
  uint64_t m_version = ~uint64_t{0};
  std::vector<std::pair<uintptr_t, uintptr_t>> m_ranges;
};

void populate(Populator* p, Regions& regions, const Request& r) {
  const uintptr_t end = r.first_page + r.pages * kPageBytes;
  std::lock_guard<std::mutex> lock(p->work);  // a region taken out of the set waits for this call (fence)
  if (!regions.contains(r.first_page, end)) {
    ++p->outside;
    return;
  }
  if (madvise(reinterpret_cast<void*>(r.first_page), end - r.first_page, MADV_POPULATE_WRITE) != 0) {
    ++p->failed;
    return;
  }
  ++p->populated;
  p->populated_pages += r.pages;
}

void run(Populator* p) {
  Regions regions;
  MinHeap waiting;      // asked, not yet populated: the soonest-due first
  MinHeap outstanding;  // populated, not yet due
  uint64_t outstanding_pages = 0;
  std::vector<Request> batch;
  uint64_t calls = 0;
  uint64_t run = 0;  // begin_run() calls seen
  for (;;) {
    uint64_t cap = 0;
    {
      std::unique_lock<std::mutex> lock(p->mutex);
      if (p->inbox.empty()) {
        p->idle = true;  // the loop below ran until nothing was left, or until the cap
        p->idle_cv.notify_all();
        if (waiting.empty()) {  // nothing to do until asked: the next request wakes the helper
          p->sleeping = true;
          p->wake.wait(lock, [p, run] { return !p->inbox.empty() || p->run != run; });
          p->sleeping = false;
        } else {
          // Held by the cap until the simulation's time passes writes populated for: look again
          // soon, unasked (a wake-up from the simulation thread at each landing or request costs
          // it a system call; the writes land tens of ms of wall time after they are asked for).
          p->wake.wait_for(lock, std::chrono::milliseconds(1));
        }
        p->idle = false;
      }
      batch.swap(p->inbox);
      cap = p->cap_pages;
      if (p->run != run) {  // a new simulation (its time starts again): what is held is stale
        run = p->run;
        waiting = MinHeap();
        outstanding = MinHeap();
        outstanding_pages = 0;
      }
    }
    const Ps now = g_now_ps.load(std::memory_order_relaxed);
    for (const Request& r : batch) waiting.push(r);
    batch.clear();
    while (!outstanding.empty() && outstanding.top().visible_ps <= now) {
      outstanding_pages -= outstanding.top().pages;
      outstanding.pop();
    }
    while (!waiting.empty()) {
      const Request r = waiting.top();
      if (r.visible_ps <= now) {  // landed or landing on the simulation thread: nothing to win
        ++p->late;
        waiting.pop();
        continue;
      }
      if (outstanding_pages + r.pages > cap) {
        ++p->capped;  // looked at again in 1 ms
        break;
      }
      waiting.pop();
      populate(p, regions, r);
      outstanding.push(r);
      outstanding_pages += r.pages;
      if (outstanding_pages > p->most_outstanding_pages) p->most_outstanding_pages = outstanding_pages;
      // Newer requests (and a later time) may be waiting: look at them every few calls.
      if (++calls % 64 == 0) {
        std::lock_guard<std::mutex> lock(p->mutex);
        if (!p->inbox.empty()) break;
      }
    }
    rusage self{};
    if (getrusage(RUSAGE_THREAD, &self) == 0) {
      p->helper_minflt = static_cast<uint64_t>(self.ru_minflt);
      p->helper_system_us =
          static_cast<uint64_t>(self.ru_stime.tv_sec) * 1000000 + static_cast<uint64_t>(self.ru_stime.tv_usec);
    }
  }
}

// A forked child has no helper thread: it starts its own on its first request.
void forget_after_fork() { g_populator = nullptr; }

Populator* populator() {
  if (g_populator) return g_populator;
  static bool first = true;
  g_populator = new Populator;
  g_populator->cap_pages = cap_from_env();
  // Signals stay with the simulation thread (the cold-page store's SIGBUS, the runner's SIGINT).
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  std::thread(run, g_populator).detach();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (first) {
    first = false;
    pthread_atfork(nullptr, nullptr, forget_after_fork);
    const char* stats = std::getenv("SYMSIM_COLD_PAGES_STATS");
    if (stats && std::strcmp(stats, "1") == 0) std::atexit(print_stats);
  }
  return g_populator;
}

}  // namespace

bool enabled() {
  static const bool on = enabled_from_env();
  return on;
}

void ask(const uint8_t* dst, uint64_t len, Ps visible_ps, Ps now_ps) {
  if (len == 0) return;
  Populator* p = populator();
  advance(now_ps);
  const auto a = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t first = a & ~(kPageBytes - 1);
  const uint64_t pages = (a + len - first + kPageBytes - 1) / kPageBytes;
  std::lock_guard<std::mutex> lock(p->mutex);
  ++p->asked;
  p->asked_pages += pages;
  p->inbox.push_back({visible_ps, first, pages});
  if (p->sleeping) p->wake.notify_one();
}

void begin_run() {
  Populator* p = populator();
  std::lock_guard<std::mutex> lock(p->mutex);
  ++p->run;
  p->inbox.clear();
  g_now_ps.store(0, std::memory_order_seq_cst);
  p->wake.notify_one();
}

void fence() {
  if (g_populator) std::lock_guard<std::mutex> lock(g_populator->work);
}

void wait_idle() {
  if (!g_populator) return;
  std::unique_lock<std::mutex> lock(g_populator->mutex);
  g_populator->idle_cv.wait(lock, [] { return g_populator->inbox.empty() && g_populator->idle; });
  
}

uint64_t set_cap_pages(uint64_t pages) {
  Populator* p = populator();
  std::lock_guard<std::mutex> lock(p->mutex);
  return std::exchange(p->cap_pages, pages);
}

Stats stats() {
  Stats s;
  Populator* p = g_populator;
  if (!p) return s;
  {
    std::lock_guard<std::mutex> lock(p->mutex);
    s.asked = p->asked;
    s.asked_pages = p->asked_pages;
  }
  s.populated = p->populated;
  s.populated_pages = p->populated_pages;
  s.late = p->late;
  s.outside = p->outside;
  s.failed = p->failed;
  s.capped = p->capped;
  s.most_outstanding_pages = p->most_outstanding_pages;
  s.helper_minor_faults = p->helper_minflt;
  s.helper_system_s = static_cast<double>(p->helper_system_us) * 1e-6;
  return s;
}

}  // namespace page_populator
}  // namespace symsim
