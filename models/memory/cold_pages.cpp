#include "models/memory/cold_pages.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

namespace symsim {
namespace cold_pages {

namespace {

constexpr uintptr_t kPageBytes = 4096;
// Pages mapped at once in all watched regions before the oldest is evicted (64 MiB) while the
// process is large; the environment variable SYMSIM_COLD_PAGES sets a fixed count instead (0:
// watch nothing).
constexpr uint64_t kDefaultBudgetPages = 16384;
// While the process's resident set is under this, the budget grows into what is left below it, up
// to kMaxBudgetPages: the rings are used in a cycle over all QPs, so no eviction order saves many
// re-faults at a small budget (an offline replay of EP 64's ring accesses: Belady's order, which
// knows the future, takes 18% off FIFO's at 1/16 of the pages); only a larger budget does.
// 3,712 MiB: at EP 256 the rest of the process alone passes 3.5 GiB around the end of dispatch
// (the received tokens and combine's first landings): the budget was below its cap for some
// 470,000 of the run's 750,000 faults (at its floor for 115,000 of them), and combine faulted the
// squeezed pages back (489,830 restores). 128 MiB more took 74,800 restores off (414,959) for a peak resident
// set of 3,897 MiB instead of 3,805 (under 4 GiB); 3,776 MiB took 118,500 off but peaked at 3,959 MiB
// (docs/performance.md, Session 35, s35-flat).
constexpr uint64_t kRssCeilingBytes = uint64_t{3712} << 20;
// At most 768 MiB, whatever the resident set: the budget is reconsidered on faults only, and none
// would come if every ring page in use were mapped. EP 256 has 262,144 ring pages (1 GiB): a
// quarter stays out, so faults keep coming. Half (512 MiB, the bound before) re-faulted 392,288
// pages in EP 256 with hidden 16, whose resident set (2.2 GiB) left room for all of them
// (docs/performance.md, Session 20).
constexpr uint64_t kMaxBudgetPages = 196608;
// Faults between two looks at the resident set (/proc/self/statm, one pread).
constexpr uint64_t kFaultsPerBudgetCheck = 256;
// Pages evicted together, with one process_madvise call (a quarter of the budget at most).
constexpr uint64_t kEvictBatchPages = 256;
// A page with its nonzero bytes spread wider than this stays mapped (saving it would save little).
constexpr uintptr_t kMaxSavedBytes = 1024;

struct Saved {
  uint16_t offset = 0;  // of the first nonzero byte
  std::string bytes;    // up to the last nonzero byte
};

// A watched region and the saved bytes of its evicted pages (by page address).
struct Range {
  uintptr_t begin = 0, end = 0;
  std::unordered_map<uintptr_t, Saved> saved;
  uint64_t mapped_pages = 0;  // its entries in Store::mapped
  // Its entries in Store::mapped numbered below this may name a page no longer mapped: pages of
  // the range were handed back as zero (forget), or a page listed twice was evicted. Only those
  // are looked up with mincore before eviction (one system call each: 5% of EP 256's kernel time).
  uint64_t unsure_below = 0;
};

// A page the handler mapped, numbered in the order it was mapped.
struct Mapped {
  uintptr_t page;
  uint64_t number;
};

// Touched only by the simulation thread: in watch/unwatch/forget and in the SIGBUS handler,
// which runs in that thread on its own access to a watched page that is not mapped.
struct Store {
  int uffd = -1;
  int pidfd = -1;  // this process, for process_madvise; -1 where the host has none
  bool opened = false;
  uint64_t budget_pages = kDefaultBudgetPages;  // now; between these two
  uint64_t floor_pages = kDefaultBudgetPages, max_pages = kMaxBudgetPages;
  int statm = -1;  // /proc/self/statm, or -1: the budget stays at the floor
  uint64_t faults_to_check = 0;
  std::vector<Range> ranges;     // sorted by begin
  std::deque<Mapped> mapped;  // pages the handler mapped, oldest first
  uint64_t mapped_count = 0;  // the next one's number
  // Entries of `mapped` whose region is no longer watched: they leave when they come up for
  // eviction, or all at once before a region is watched again (its pages could be at their
  // addresses). Erasing them on unwatch scanned every mapped page once per region (0.24 s of
  // EP 256's teardown).
  uint64_t stale_pages = 0;
  Stats stats;
  struct sigaction previous {};
};

Store& store() {
  static Store* s = new Store;  // never destroyed: regions may outlive static destructors
  return *s;
}

// The handler's buffers, static: it may run on a small coroutine or fiber stack.
alignas(kPageBytes) uint8_t g_page[kPageBytes];
alignas(64) const uint8_t g_zeros[kPageBytes] = {};
iovec g_evicting[kEvictBatchPages];

// The watched range holding address `a`, or null.
Range* range_of(Store& s, uintptr_t a) {
  auto it = std::upper_bound(s.ranges.begin(), s.ranges.end(), a, [](uintptr_t x, const Range& r) { return x < r.begin; });
  if (it == s.ranges.begin() || a >= std::prev(it)->end) return nullptr;
  return &*std::prev(it);
}

[[noreturn]] void fail(const char* what) {
  const char prefix[] = "symsim: cold pages: ";
  (void)!write(2, prefix, sizeof prefix - 1);
  (void)!write(2, what, std::strlen(what));
  (void)!write(2, "\n", 1);
  std::abort();
}

uint64_t word(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Saves `page`'s nonzero bytes and returns true if it can be handed back; a page already gone
// (cleared whole by store_zeros) or too full to be worth saving is left as it is. `unsure`: the
// page may be gone (else it is known to be mapped).
bool save(Store& s, Range& range, uintptr_t page, bool unsure) {
  unsigned char present = 0;
  if (unsure && (mincore(reinterpret_cast<void*>(page), kPageBytes, &present) != 0 || !(present & 1))) return false;
  const auto* p = reinterpret_cast<const uint8_t*>(page);
  uintptr_t first = 0;
  while (first < kPageBytes && word(p + first) == 0) first += 8;
  if (first < kPageBytes) {
    while (p[first] == 0) ++first;
    // A nonzero byte past first + kMaxSavedBytes makes the page too full: that tail is tested with
    // one vectorised memcmp (nearly all of a ring page, whose bytes sit in its first 512), and the
    // byte loops below walk back from its start instead of from the page's end (docs/performance.md,
    // Session 36, s36-sys).
    uintptr_t end = std::min(kPageBytes, first + kMaxSavedBytes);
    if (end < kPageBytes && std::memcmp(p + end, g_zeros, kPageBytes - end) != 0) return false;
    while (word(p + end - 8) == 0) end -= 8;
    while (p[end - 1] == 0) --end;
    if (end - first > kMaxSavedBytes) return false;
    Saved& saved = range.saved[page];
    saved.offset = static_cast<uint16_t>(first);
    saved.bytes.assign(reinterpret_cast<const char*>(p + first), end - first);
    s.stats.saved_bytes += end - first;
  }
  return true;
}

// Evicts the oldest mapped pages: their bytes saved, then handed back in one call.
void evict_oldest(Store& s) {
  iovec* pages = g_evicting;
  size_t n = 0;
  const uint64_t batch = std::clamp<uint64_t>(s.budget_pages / 4, 1, kEvictBatchPages);
  for (uint64_t i = 0; i < batch && !s.mapped.empty(); ++i) {
    const Mapped m = s.mapped.front();
    s.mapped.pop_front();
    Range* range = range_of(s, m.page);
    if (!range) {
      --s.stale_pages;
      continue;
    }
    --range->mapped_pages;
    const bool unsure = m.number < range->unsure_below;
    if (!save(s, *range, m.page, unsure)) continue;
    pages[n++] = {reinterpret_cast<void*>(m.page), kPageBytes};
    // A page dropped and mapped again is listed twice: its later entry must not take it as mapped.
    if (unsure) range->unsure_below = s.mapped_count;
  }
  if (n == 0) return;
  if (s.pidfd < 0 || syscall(SYS_process_madvise, s.pidfd, pages, n, MADV_DONTNEED, 0) != static_cast<long>(n * kPageBytes)) {
    for (size_t i = 0; i < n; ++i)
      if (madvise(pages[i].iov_base, kPageBytes, MADV_DONTNEED) != 0) fail("madvise failed");
  }
  s.stats.evicted += n;
}

void map_page(Store& s, Range& range, uintptr_t page) {
  std::memset(g_page, 0, kPageBytes);
  auto it = range.saved.find(page);
  if (it != range.saved.end()) {
    std::memcpy(g_page + it->second.offset, it->second.bytes.data(), it->second.bytes.size());
    s.stats.saved_bytes -= it->second.bytes.size();
    range.saved.erase(it);
    ++s.stats.restored;
  }
  uffdio_copy copy{};
  copy.dst = page;
  copy.src = reinterpret_cast<uintptr_t>(g_page);
  copy.len = kPageBytes;
  if (ioctl(s.uffd, UFFDIO_COPY, &copy) != 0) {
    if (errno != EEXIST) fail("UFFDIO_COPY failed");
    range.unsure_below = s.mapped_count + 1;  // mapped already, perhaps listed: its entries ask
  }
  s.mapped.push_back({page, s.mapped_count++});
  ++range.mapped_pages;
  ++s.stats.faults;
}

// The budget from the resident set: the floor, plus what the process leaves under the ceiling.
uint64_t budget_now(Store& s) {
  char text[128];
  const ssize_t n = s.statm < 0 ? -1 : pread(s.statm, text, sizeof text - 1, 0);
  if (n <= 0) return s.floor_pages;
  text[n] = '\0';
  const char* resident = std::strchr(text, ' ');  // "size resident shared ..." in pages
  if (!resident) return s.floor_pages;
  uint64_t rss_pages = 0;  // a digit loop: strtoull is not async-signal-safe (this runs in the SIGBUS handler)
  for (const char* c = resident + 1; *c >= '0' && *c <= '9'; ++c) rss_pages = rss_pages * 10 + static_cast<uint64_t>(*c - '0');
  const uint64_t others = rss_pages - std::min<uint64_t>(rss_pages, s.mapped.size() - s.stale_pages);
  const uint64_t ceiling = kRssCeilingBytes / kPageBytes;
  return std::clamp<uint64_t>(ceiling > others ? ceiling - others : 0, s.floor_pages, s.max_pages);
}

void on_sigbus(int, siginfo_t* info, void*) {
  Store& s = store();
  const auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  Range* range = range_of(s, a);
  if (!range) {  // not ours: the access faults again, under the previous action
    sigaction(SIGBUS, &s.previous, nullptr);
    return;
  }
  const int saved_errno = errno;
  if (s.max_pages > s.floor_pages && s.faults_to_check-- == 0) {
    s.faults_to_check = kFaultsPerBudgetCheck;
    s.budget_pages = budget_now(s);
  }
  while (s.mapped.size() - s.stale_pages >= s.budget_pages) evict_oldest(s);
  map_page(s, *range, a & ~(kPageBytes - 1));
  errno = saved_errno;
}

// SYMSIM_COLD_PAGES must be a whole number of pages: anything else stops the run (exit 2) rather
// than turning the store off or on silently.
uint64_t budget_from_env(const char* text) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long pages = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || text[0] < '0' || text[0] > '9') {
    std::fprintf(stderr, "symsim: environment variable SYMSIM_COLD_PAGES: '%s' is not a whole number of pages\n", text);
    std::exit(2);
  }
  return pages;
}

// SYMSIM_COLD_PAGES_STATS: "1" prints the counts at exit, "0" or unset does not; anything else stops the run (exit 2).
bool stats_from_env() {
  const char* text = std::getenv("SYMSIM_COLD_PAGES_STATS");
  if (!text || !*text || std::strcmp(text, "0") == 0) return false;
  if (std::strcmp(text, "1") == 0) return true;
  std::fprintf(stderr, "symsim: environment variable SYMSIM_COLD_PAGES_STATS: '%s' is neither 0 nor 1\n", text);
  std::exit(2);
}

void print_stats() {
  if (store().uffd < 0) {
    std::fprintf(stderr, "symsim: cold pages: off (SYMSIM_COLD_PAGES=0, or no userfaultfd on this host)\n");
    return;
  }
  const Stats st = store().stats;
  std::fprintf(stderr, "symsim: cold pages: %llu faults, %llu of them restoring an evicted page, %llu evictions\n",
               static_cast<unsigned long long>(st.faults), static_cast<unsigned long long>(st.restored),
               static_cast<unsigned long long>(st.evicted));
}

bool open_store(Store& s) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;  // the sanitizers keep SIGBUS for themselves
#endif
  if (s.budget_pages == 0) return false;
  const int fd = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY));
  if (fd < 0) return false;
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = UFFD_FEATURE_SIGBUS;
  if (ioctl(fd, UFFDIO_API, &api) != 0) {
    close(fd);
    return false;
  }
  struct sigaction sa {};
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGBUS, &sa, &s.previous) != 0) {
    close(fd);
    return false;
  }
  s.uffd = fd;
  s.statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  s.pidfd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  return true;
}

// The store, opened (and its budget read from the environment) on first use.
Store& opened_store() {
  Store& s = store();
  if (!s.opened) {
    s.opened = true;
    // The environment is read (and a bad value refused) whether or not this host can open the store.
    if (const char* env = std::getenv("SYMSIM_COLD_PAGES"); env && *env)
      s.budget_pages = s.floor_pages = s.max_pages = budget_from_env(env);
    if (stats_from_env()) std::atexit(print_stats);
    open_store(s);
  }
  return s;
}

}  // namespace

bool watch(uint8_t* base, uint64_t size_bytes) {
  Store& s = opened_store();
  if (s.uffd < 0 || size_bytes == 0) return false;
  uffdio_register reg{};
  reg.range.start = reinterpret_cast<uintptr_t>(base);
  reg.range.len = size_bytes;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  if (ioctl(s.uffd, UFFDIO_REGISTER, &reg) != 0) return false;
  if (s.stale_pages > 0) {
    s.mapped.erase(std::remove_if(s.mapped.begin(), s.mapped.end(), [&s](const Mapped& m) { return !range_of(s, m.page); }),
                   s.mapped.end());
    s.stale_pages = 0;
  }
  Range range;
  range.begin = reinterpret_cast<uintptr_t>(base);
  range.end = range.begin + size_bytes;
  auto at = std::upper_bound(s.ranges.begin(), s.ranges.end(), range.begin,
                             [](uintptr_t x, const Range& r) { return x < r.begin; });
  s.ranges.insert(at, std::move(range));
  return true;
}

void unwatch(uint8_t* base, uint64_t size_bytes) {
  Store& s = store();
  const auto b = reinterpret_cast<uintptr_t>(base);
  uffdio_range range{b, size_bytes};
  ioctl(s.uffd, UFFDIO_UNREGISTER, &range);
  for (auto it = s.ranges.begin(); it != s.ranges.end(); ++it) {
    if (it->begin != b) continue;
    for (const auto& kv : it->saved) s.stats.saved_bytes -= kv.second.bytes.size();
    s.stale_pages += it->mapped_pages;
    s.ranges.erase(it);
    break;
  }
}

void forget(uint8_t* begin, uint64_t len) {
  Store& s = store();
  if (s.ranges.empty()) return;
  const auto b = reinterpret_cast<uintptr_t>(begin);
  Range* range = range_of(s, b);
  if (!range) return;
  range->unsure_below = s.mapped_count;  // its listed pages in [begin, begin + len) go
  if (range->saved.empty()) return;
  const uintptr_t first = (b + kPageBytes - 1) & ~(kPageBytes - 1);
  for (uintptr_t page = first; page + kPageBytes <= b + len; page += kPageBytes) {
    auto it = range->saved.find(page);
    if (it == range->saved.end()) continue;
    s.stats.saved_bytes -= it->second.bytes.size();
    range->saved.erase(it);
  }
}

bool watches(const void* p) {
  Store& s = store();
  return !s.ranges.empty() && range_of(s, reinterpret_cast<uintptr_t>(p)) != nullptr;
}

uint64_t set_budget_pages(uint64_t pages) {
  Store& s = opened_store();  // so that SYMSIM_COLD_PAGES, read on opening, does not undo this later
  const uint64_t previous = s.max_pages > s.floor_pages ? 0 : s.budget_pages;
  s.budget_pages = s.floor_pages = s.max_pages = pages == 0 ? kDefaultBudgetPages : pages;
  if (pages == 0) s.max_pages = kMaxBudgetPages;
  return previous;
}

Stats stats() { return store().stats; }

}  // namespace cold_pages
}  // namespace symsim
