// The newest N entries of a stream (N a power of two, at least 4), oldest first. The entries
// sit in segments of 4, 4, 8, 16, ..., N/2 that together hold the ring's N positions: growing
// allocates the next segment and moves nothing (a vector doubling to N copied every entry
// once more on the way, and those copies were most of what a busy QP's call-site index cost
// the caches before it was full). Once full, a push overwrites the oldest entry in place.
// Nothing is allocated or initialised beyond the segments pushed into (a QP that posts ten
// WQEs keeps 16 slots).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

namespace symsim {

template <typename T, size_t N>
class BoundedRing {
  static_assert(N >= 4 && (N & (N - 1)) == 0, "N must be a power of two, at least 4");
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
                "entries are written into raw storage and never destroyed");

 public:
  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  // The i-th entry, oldest first (the oldest is at position 0 until the ring is full).
  T& operator[](size_t i) { return at(m_size < N ? i : (m_pos + i) & (N - 1)); }
  const T& operator[](size_t i) const { return const_cast<BoundedRing&>(*this)[i]; }
  // The newest entry: the one before the cursor (a push moves the cursor before it writes).
  T& back() { return m_cursor[-1]; }
  const T& back() const { return m_cursor[-1]; }

  // Inline: a push writes through the cursor (the record's line and the entry's only).
  void push_back(const T& item) { push_slot() = item; }
  // The slot of a new newest entry, for the caller to fill field by field (an entry built on the
  // stack and then copied went through the stack: a load and a store more per word). Default-
  // initialised: T's fields are whatever the slot held until the caller writes them.
  T& push_slot() {
    if (m_cursor == m_segment_end) enter_segment();
    T* slot = m_cursor++;
    // The next push's line, fetched now: a QP's next entry comes after the other QPs' WQEs
    // (about 32 on put-heavy) and lies on a line last written a whole ring ago, far out of the
    // caches; the line stays in L2 until then. (Past the segment's end it fetches a line of no
    // use; a prefetch never faults.)
    __builtin_prefetch(m_cursor, 1);
    m_pos = (m_pos + 1) & (N - 1);
    if (m_size < N) ++m_size;
    return *::new (static_cast<void*>(slot)) T;
  }

 private:
  static constexpr size_t kSegments = [] {
    size_t n = 0;
    for (size_t s = N; s > 2; s >>= 1) ++n;  // log2(N) - 1
    return n;
  }();
  // Segment s >= 1 holds positions [2^(s+1), 2^(s+2)); segment 0 holds [0, 4).
  static size_t segment_of(size_t p) { return p < 4 ? 0 : static_cast<size_t>(62 - __builtin_clzll(p)); }
  static size_t segment_start(size_t s) { return s == 0 ? 0 : size_t{2} << s; }
  static size_t segment_size(size_t s) { return s == 0 ? 4 : size_t{2} << s; }
  T& at(size_t p) {
    const size_t s = segment_of(p);
    return m_segments[s].get()[p - segment_start(s)];
  }
  // Out of line: the cursor reached a segment's end (the next one is allocated while growing;
  // once full, the positions wrap to segment 0).
  [[gnu::noinline]] void enter_segment() {
    if (!m_segments) m_segments.reset(new Segment[kSegments]);
    const size_t s = segment_of(m_pos);
    // Not initialised: an entry is written (put) before it is read. On a line boundary: an entry
    // of 32 bytes then never straddles two lines (from a 16-byte-aligned block, half did).
    if (!m_segments[s]) m_segments[s].reset(static_cast<T*>(::operator new(segment_size(s) * sizeof(T), kAlign)));
    m_cursor = m_segments[s].get() + (m_pos - segment_start(s));
    m_segment_end = m_segments[s].get() + segment_size(s);
  }
  static constexpr std::align_val_t kAlign{64};
  struct Free {
    void operator()(T* p) const { ::operator delete(p, kAlign); }
  };
  using Segment = std::unique_ptr<T, Free>;

  // Where the next push goes (position m_pos), and the end of its segment: 32 bytes in all, the
  // segment table out of line (a push reads it only when entering a segment).
  T* m_cursor = nullptr;
  T* m_segment_end = nullptr;
  uint32_t m_pos = 0;  // the next position written (the oldest entry once full)
  uint32_t m_size = 0;
  std::unique_ptr<Segment[]> m_segments;  // kSegments of them
};

}  // namespace symsim
