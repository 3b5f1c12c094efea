// Byte buffers handed back by one user of large, short-lived copies and taken again by the next
// (the visibility queue's early writes: the old bytes of a forced write, 7-14 KiB in MoE, kept
// until the write's time). The last buffer handed back is the first taken: its lines are still
// in cache, where a fresh allocation came from the allocator's cold bins and, at EP 256, from
// heap pages faulted in again (docs/performance.md, session 27). Capped in bytes: what is kept
// beyond the cap goes back to the allocator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace symsim {

class SpareBuffers {
 public:
  explicit SpareBuffers(size_t cap_bytes) : m_cap_bytes(cap_bytes) {}

  // An empty buffer whose capacity is at least `bytes`: a kept one (among the last few handed
  // back) if one is large enough, else a new, unallocated vector.
  std::vector<uint8_t> take(size_t bytes) {
    const size_t n = m_kept.size();
    for (size_t k = 0; k < n && k < kLookBack; ++k) {
      std::vector<uint8_t>& b = m_kept[n - 1 - k];
      if (b.capacity() < bytes) continue;
      std::vector<uint8_t> out = std::move(b);
      if (k > 0) b = std::move(m_kept.back());  // the last one fills the hole
      m_kept.pop_back();
      m_kept_bytes -= out.capacity();
      return out;
    }
    return {};
  }

  // Keeps `b` (emptied) while the kept capacity stays within the cap; else frees it.
  void give(std::vector<uint8_t>&& b) {
    const size_t c = b.capacity();
    if (c == 0 || m_kept_bytes + c > m_cap_bytes) {
      std::vector<uint8_t>().swap(b);
      return;
    }
    b.clear();
    m_kept_bytes += c;
    m_kept.push_back(std::move(b));
    b = std::vector<uint8_t>();  // a moved-from vector is left empty; say so
  }

  size_t kept() const { return m_kept.size(); }
  size_t kept_bytes() const { return m_kept_bytes; }

 private:
  // Buffers of two sizes alternate (a dispatch token, a combine token): look a few deep, not
  // only at the last one.
  static constexpr size_t kLookBack = 4;
  size_t m_cap_bytes;
  size_t m_kept_bytes = 0;
  std::vector<std::vector<uint8_t>> m_kept;
};

}  // namespace symsim
