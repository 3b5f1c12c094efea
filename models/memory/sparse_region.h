// A large, lazily-backed host mapping: pages materialise on first touch, so a kernel's
// __gm__ pointer is a real pointer and GiB-sized heaps cost only what is touched.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace symsim {

class SparseRegion {
 public:
  SparseRegion() = default;
  // `accessible` false reserves address space that faults on any access (MMIO windows).
  SparseRegion(uint64_t size_bytes, bool accessible, std::string name);
  ~SparseRegion();
  SparseRegion(SparseRegion&& o) noexcept;
  SparseRegion& operator=(SparseRegion&& o) noexcept;
  SparseRegion(const SparseRegion&) = delete;
  SparseRegion& operator=(const SparseRegion&) = delete;

  // Keeps this region's resident pages under a budget by evicting the oldest with their few
  // nonzero bytes saved (cold_pages.h): for regions whose touched pages are mostly empty.
  void watch_cold_pages();

  uint8_t* base() const { return m_base; }
  uint64_t size() const { return m_size; }
  const std::string& name() const { return m_name; }
  // Writes `len` zero bytes at `dst`. Whole host pages inside a sparse region that end up all
  // zero are handed back to the host (they read as zero again), so memory a kernel clears
  // costs nothing until it is written again. Elsewhere it is a plain memset.
  static void store_zeros(uint8_t* dst, uint64_t len);
  // True if [p, p+len) lies in one accessible sparse region.
  static bool is_sparse(const void* p, uint64_t len);
  static bool is_zero(const uint8_t* p, uint64_t len);
  // The same answer as is_zero, without reading the pages of a sparse region that have never
  // been written or were handed back (neither mapped nor swapped out, by /proc/self/pagemap):
  // such a page of a private anonymous mapping reads zero, and reading it would map the zero
  // page (a fault each). For checks that read back memory most of which was cleared. Outside a
  // sparse region, in one that cold_pages watches (a missing page there may have saved bytes),
  // or where pagemap cannot be read, it is is_zero.
  static bool reads_zero(const uint8_t* p, uint64_t len);
  static constexpr uint64_t kHostPageBytes = 4096;

  bool contains(const void* p, uint64_t len = 1) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    const auto b = reinterpret_cast<uintptr_t>(m_base);
    return a >= b && a + len <= b + m_size && len <= m_size;
  }

 private:
  void enlist();
  void delist();
  void unmap();

  uint8_t* m_base = nullptr;
  uint64_t m_size = 0;
  bool m_accessible = false;
  bool m_cold = false;  // watched by cold_pages
  std::string m_name;
};

// Hands out aligned sub-ranges of a region in order (HBM carve-outs, heap allocations).
class BumpAllocator {
 public:
  BumpAllocator() = default;
  BumpAllocator(uint8_t* base, uint64_t size_bytes) : m_base(base), m_size(size_bytes) {}
  // Returns nullptr when the region is exhausted.
  uint8_t* allocate(uint64_t bytes, uint64_t align_bytes);
  uint64_t used() const { return m_used; }
  uint64_t size() const { return m_size; }
  uint8_t* base() const { return m_base; }

 private:
  uint8_t* m_base = nullptr;
  uint64_t m_size = 0;
  uint64_t m_used = 0;
};

}  // namespace symsim
