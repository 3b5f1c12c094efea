#include "models/memory/cold_pages.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace symsim {
namespace cold_pages {

namespace {

constexpr uintptr_t kPageBytes = 4096;
// Pages mapped at once in all watched regions before the oldest is evicted (64 MiB); the
// environment variable SYMSIM_COLD_PAGES sets another count (0: watch nothing).
constexpr uint64_t kDefaultBudgetPages = 16384;
// A page with its nonzero bytes spread wider than this stays mapped (saving it would save little).
constexpr uintptr_t kMaxSavedBytes = 1024;

struct Saved {
  uint16_t offset = 0;  // of the first nonzero byte
  std::string bytes;    // up to the last nonzero byte
};

// Touched only by the simulation thread: in watch/unwatch/forget and in the SIGBUS handler,
// which runs in that thread on its own access to a watched page that is not mapped.
struct Store {
  int uffd = -1;
  bool opened = false;
  uint64_t budget_pages = kDefaultBudgetPages;
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;  // watched [begin, end), sorted
  std::deque<uintptr_t> mapped;                          // pages the handler mapped, oldest first
  std::map<uintptr_t, Saved> saved;                      // evicted pages with nonzero bytes
  Stats stats;
  struct sigaction previous {};
};

Store& store() {
  static Store* s = new Store;  // never destroyed: regions may outlive static destructors
  return *s;
}

alignas(kPageBytes) uint8_t g_page[kPageBytes];

bool watched(const Store& s, uintptr_t a) {
  auto it = std::upper_bound(s.ranges.begin(), s.ranges.end(), std::make_pair(a, UINTPTR_MAX));
  return it != s.ranges.begin() && a < std::prev(it)->second;
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

// Hands `page` back, keeping its nonzero bytes; a page already gone (cleared whole by
// store_zeros) or too full to be worth saving is left as it is.
void evict(Store& s, uintptr_t page) {
  unsigned char present = 0;
  if (mincore(reinterpret_cast<void*>(page), kPageBytes, &present) != 0 || !(present & 1)) return;
  const auto* p = reinterpret_cast<const uint8_t*>(page);
  uintptr_t first = 0;
  while (first < kPageBytes && word(p + first) == 0) first += 8;
  if (first < kPageBytes) {
    while (p[first] == 0) ++first;
    uintptr_t end = kPageBytes;
    while (word(p + end - 8) == 0) end -= 8;
    while (p[end - 1] == 0) --end;
    if (end - first > kMaxSavedBytes) return;
    Saved& saved = s.saved[page];
    saved.offset = static_cast<uint16_t>(first);
    saved.bytes.assign(reinterpret_cast<const char*>(p + first), end - first);
    s.stats.saved_bytes += end - first;
  }
  if (madvise(reinterpret_cast<void*>(page), kPageBytes, MADV_DONTNEED) != 0) fail("madvise failed");
  ++s.stats.evicted;
}

void map_page(Store& s, uintptr_t page) {
  std::memset(g_page, 0, kPageBytes);
  auto it = s.saved.find(page);
  if (it != s.saved.end()) {
    std::memcpy(g_page + it->second.offset, it->second.bytes.data(), it->second.bytes.size());
    s.stats.saved_bytes -= it->second.bytes.size();
    s.saved.erase(it);
    ++s.stats.restored;
  }
  uffdio_copy copy{};
  copy.dst = page;
  copy.src = reinterpret_cast<uintptr_t>(g_page);
  copy.len = kPageBytes;
  if (ioctl(s.uffd, UFFDIO_COPY, &copy) != 0 && errno != EEXIST) fail("UFFDIO_COPY failed");
  s.mapped.push_back(page);
  ++s.stats.faults;
}

void on_sigbus(int, siginfo_t* info, void*) {
  Store& s = store();
  const auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  if (!watched(s, a)) {  // not ours: the access faults again, under the previous action
    sigaction(SIGBUS, &s.previous, nullptr);
    return;
  }
  const int saved_errno = errno;
  while (s.mapped.size() >= s.budget_pages) {
    const uintptr_t oldest = s.mapped.front();
    s.mapped.pop_front();
    evict(s, oldest);
  }
  map_page(s, a & ~(kPageBytes - 1));
  errno = saved_errno;
}

bool open_store(Store& s) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;  // the sanitizers keep SIGBUS for themselves
#endif
  if (const char* env = std::getenv("SYMSIM_COLD_PAGES"); env && *env) s.budget_pages = std::strtoull(env, nullptr, 10);
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
  return true;
}

}  // namespace

bool watch(uint8_t* base, uint64_t size_bytes) {
  Store& s = store();
  if (!s.opened) {
    s.opened = true;
    open_store(s);
  }
  if (s.uffd < 0 || size_bytes == 0) return false;
  uffdio_register reg{};
  reg.range.start = reinterpret_cast<uintptr_t>(base);
  reg.range.len = size_bytes;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  if (ioctl(s.uffd, UFFDIO_REGISTER, &reg) != 0) return false;
  const auto range = std::make_pair(reinterpret_cast<uintptr_t>(base), reinterpret_cast<uintptr_t>(base) + size_bytes);
  s.ranges.insert(std::upper_bound(s.ranges.begin(), s.ranges.end(), range), range);
  return true;
}

void unwatch(uint8_t* base, uint64_t size_bytes) {
  Store& s = store();
  const auto b = reinterpret_cast<uintptr_t>(base);
  const uintptr_t e = b + size_bytes;
  uffdio_range range{b, size_bytes};
  ioctl(s.uffd, UFFDIO_UNREGISTER, &range);
  s.ranges.erase(std::remove_if(s.ranges.begin(), s.ranges.end(), [b](const auto& r) { return r.first == b; }),
                 s.ranges.end());
  s.mapped.erase(std::remove_if(s.mapped.begin(), s.mapped.end(), [b, e](uintptr_t p) { return p >= b && p < e; }),
                 s.mapped.end());
  forget(base, size_bytes);
}

void forget(uint8_t* begin, uint64_t len) {
  Store& s = store();
  if (s.saved.empty()) return;
  const auto b = reinterpret_cast<uintptr_t>(begin);
  for (auto it = s.saved.lower_bound(b); it != s.saved.end() && it->first + kPageBytes <= b + len;) {
    s.stats.saved_bytes -= it->second.bytes.size();
    it = s.saved.erase(it);
  }
}

uint64_t set_budget_pages(uint64_t pages) { return std::exchange(store().budget_pages, std::max<uint64_t>(pages, 1)); }

Stats stats() { return store().stats; }

}  // namespace cold_pages
}  // namespace symsim
