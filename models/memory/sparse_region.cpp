#include "models/memory/sparse_region.h"

#include "models/memory/cold_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace symsim {

namespace {

// The accessible regions alive now, sorted by base (for store_zeros: only private anonymous
// mappings of ours may have pages dropped).
struct Registry {
  std::mutex mutex;
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
};
Registry& registry() {
  static Registry r;
  return r;
}

// Compared a page at a time with a page of zeros: libc's memcmp is vectorised for the CPU it runs
// on (AVX2 here: 32 bytes an instruction, against 8 for the loop of 64-bit ORs this replaces, which
// was 4,100 instructions per zero 14 KiB slot at MoE full size) and stops at the first difference,
// so random data still exits within its first bytes (docs/performance.md, session 29).
bool all_zero(const uint8_t* p, uint64_t len) {
  alignas(64) static const uint8_t kZeros[4096] = {};
  for (; len > sizeof kZeros; p += sizeof kZeros, len -= sizeof kZeros)
    if (std::memcmp(p, kZeros, sizeof kZeros) != 0) return false;
  return std::memcmp(p, kZeros, len) == 0;
}

void drop_pages(uint8_t* begin, uint64_t len) {
  if (len == 0) return;
  cold_pages::forget(begin, len);  // an evicted page in the range reads as zero from now on
  madvise(begin, len, MADV_DONTNEED);
}

// The accessible region holding [a, a + len): its [begin, end), or false.
bool region_of(uintptr_t a, uint64_t len, uintptr_t* begin, uintptr_t* end) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = std::upper_bound(r.ranges.begin(), r.ranges.end(), std::make_pair(a, UINTPTR_MAX));
  if (it == r.ranges.begin()) return false;
  --it;
  if (a < it->first || len > it->second - it->first || a - it->first > it->second - it->first - len) return false;
  *begin = it->first;
  *end = it->second;
  return true;
}

// /proc/self/pagemap (one 64-bit entry a page), opened once per process; -1 where it cannot be.
// "self" is resolved on opening: a child forked after the parent opened it would read the
// parent's page table through the inherited descriptor, so a new process opens its own.
int pagemap_fd() {
  static std::mutex mutex;
  static int fd = -1;
  static pid_t owner = 0;
  std::lock_guard<std::mutex> lock(mutex);
  const pid_t pid = getpid();
  if (pid != owner) {
    if (fd >= 0) close(fd);
    fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    owner = pid;
  }
  return fd;
}
constexpr uint64_t kPagemapPresent = uint64_t{1} << 63, kPagemapSwapped = uint64_t{1} << 62;

}  // namespace

bool SparseRegion::is_zero(const uint8_t* p, uint64_t len) { return all_zero(p, len); }

bool SparseRegion::reads_zero(const uint8_t* p, uint64_t len) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  uintptr_t region_begin, region_end;
  if (len < kHostPageBytes || !region_of(a, len, &region_begin, &region_end) || cold_pages::watches(p))
    return all_zero(p, len);
  const int fd = pagemap_fd();
  if (fd < 0) return all_zero(p, len);
  const uintptr_t end = a + len;
  uintptr_t page = a & ~(kHostPageBytes - 1);
  uint64_t entries[256];  // 1 MiB of pages a read
  while (page < end) {
    const uint64_t n = std::min<uint64_t>(std::size(entries), (end - page + kHostPageBytes - 1) / kHostPageBytes);
    const auto want = static_cast<ssize_t>(n * sizeof entries[0]);
    const uintptr_t from = std::max(page, a);
    if (pread(fd, entries, want, static_cast<off_t>(page / kHostPageBytes * sizeof entries[0])) != want)
      return all_zero(reinterpret_cast<const uint8_t*>(from), end - from);
    for (uint64_t i = 0; i < n; ++i, page += kHostPageBytes) {
      if (!(entries[i] & (kPagemapPresent | kPagemapSwapped))) continue;  // never written, or handed back: zero
      const uintptr_t lo = std::max(page, a), hi = std::min(page + kHostPageBytes, end);
      if (!all_zero(reinterpret_cast<const uint8_t*>(lo), hi - lo)) return false;
    }
  }
  return true;
}

bool SparseRegion::is_sparse(const void* p, uint64_t len) {
  uintptr_t begin, end;
  return region_of(reinterpret_cast<uintptr_t>(p), len, &begin, &end);
}

void SparseRegion::store_zeros(uint8_t* dst, uint64_t len) {
  const auto a = reinterpret_cast<uintptr_t>(dst);
  uintptr_t region_begin, region_end;
  if (len < kHostPageBytes || !region_of(a, len, &region_begin, &region_end)) {
    std::memset(dst, 0, len);
    return;
  }
  const uintptr_t first = (a + kHostPageBytes - 1) & ~(kHostPageBytes - 1);  // first whole page
  const uintptr_t last = (a + len) & ~(kHostPageBytes - 1);                  // end of the last one
  const uintptr_t head = first - kHostPageBytes;  // the page holding dst (mappings start on a page)
  std::memset(dst, 0, first - a);
  std::memset(reinterpret_cast<uint8_t*>(last), 0, a + len - last);
  uintptr_t drop_begin = first, drop_end = last;
  // A partly cleared page may now be zero as a whole (slots that straddle pages): only its bytes
  // outside [dst, dst + len) are left to look at.
  if (first != a && head >= region_begin && all_zero(reinterpret_cast<const uint8_t*>(head), a - head))
    drop_begin = head;
  if (last != a + len && last + kHostPageBytes <= region_end &&
      all_zero(reinterpret_cast<const uint8_t*>(a + len), last + kHostPageBytes - (a + len)))
    drop_end = last + kHostPageBytes;
  drop_pages(reinterpret_cast<uint8_t*>(drop_begin), drop_end - drop_begin);
}

void SparseRegion::enlist() {
  if (!m_base || !m_accessible) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto range = std::make_pair(reinterpret_cast<uintptr_t>(m_base), reinterpret_cast<uintptr_t>(m_base) + m_size);
  r.ranges.insert(std::upper_bound(r.ranges.begin(), r.ranges.end(), range), range);
}

void SparseRegion::delist() {
  if (!m_base || !m_accessible) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto b = reinterpret_cast<uintptr_t>(m_base);
  r.ranges.erase(std::remove_if(r.ranges.begin(), r.ranges.end(), [b](const auto& x) { return x.first == b; }),
                 r.ranges.end());
}

SparseRegion::SparseRegion(uint64_t size_bytes, bool accessible, std::string name)
    : m_size(size_bytes), m_accessible(accessible), m_name(std::move(name)) {
  const int prot = accessible ? (PROT_READ | PROT_WRITE) : PROT_NONE;
  void* p = mmap(nullptr, size_bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot reserve " + std::to_string(size_bytes) +
                                                " bytes of address space for " + m_name);
  m_base = static_cast<uint8_t*>(p);
  enlist();
}

void SparseRegion::watch_cold_pages() {
  if (m_base && m_accessible && !m_cold) m_cold = cold_pages::watch(m_base, m_size);
}

void SparseRegion::unmap() {
  delist();
  if (m_cold) cold_pages::unwatch(m_base, m_size);
  if (m_base) munmap(m_base, m_size);
}

SparseRegion::~SparseRegion() { unmap(); }

SparseRegion::SparseRegion(SparseRegion&& o) noexcept
    : m_base(std::exchange(o.m_base, nullptr)),
      m_size(o.m_size),
      m_accessible(o.m_accessible),
      m_cold(std::exchange(o.m_cold, false)),
      m_name(std::move(o.m_name)) {}

SparseRegion& SparseRegion::operator=(SparseRegion&& o) noexcept {
  if (this != &o) {
    unmap();
    m_base = std::exchange(o.m_base, nullptr);
    m_size = o.m_size;
    m_accessible = o.m_accessible;
    m_cold = std::exchange(o.m_cold, false);
    m_name = std::move(o.m_name);
  }
  return *this;
}

uint8_t* BumpAllocator::allocate(uint64_t bytes, uint64_t align_bytes) {
  if (align_bytes == 0) align_bytes = 1;
  const uint64_t start = (m_used + align_bytes - 1) / align_bytes * align_bytes;
  if (start + bytes > m_size || start + bytes < start) return nullptr;
  m_used = start + bytes;
  return m_base + start;
}

}  // namespace symsim
