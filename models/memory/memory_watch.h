// Readers asleep on memory. A core that keeps re-reading the same unchanged bytes (a polling
// loop) can sleep here instead of spinning: every writer says which bytes it makes visible and
// when (the visibility queue for each write it schedules or forces, the shim for stores it does
// at once), and a sleeper whose bytes are touched is woken at that time. Waking early is
// harmless (the reader looks, finds nothing new and sleeps again); waking late never happens
// for writes that go through a writer that reports them.
#pragma once
#include <systemc>

#include <cstdint>
#include <limits>

#include "models/core/page_multimap.h"
#include "models/core/time.h"

namespace symsim {

class MemoryWatch {
 public:
  static constexpr Ps kNever = std::numeric_limits<Ps>::max();

  struct Sleeper {
    const uint8_t* begin = nullptr;
    const uint8_t* end = nullptr;  // one past the last byte watched
    Ps wake_ps = kNever;           // earliest write seen so far
    sc_core::sc_event wake;
  };

  // Registers `s` (range set) until remove(s); wakes it at `first_write_ps` if that is known.
  void add(Sleeper& s, Ps first_write_ps);
  void remove(Sleeper& s);
  // Bytes [dst, dst + len) become visible in units of `unit_bytes` (0: all at once), the first
  // at `first_ps` and each next one `interval_ps` later. Inline: nearly every write happens
  // while no reader sleeps, and then costs one test.
  void written(const uint8_t* dst, uint64_t len, Ps first_ps, uint32_t unit_bytes = 0, Ps interval_ps = 0) {
    if (m_sleepers != 0 && len != 0) wake_readers(dst, len, first_ps, unit_bytes, interval_ps);
  }
  bool empty() const { return m_sleepers == 0; }

  // When the unit of such a write that first touches [begin, end) becomes visible.
  static Ps first_touch_ps(const uint8_t* begin, const uint8_t* dst, Ps first_ps, uint32_t unit_bytes,
                           Ps interval_ps);
  static constexpr uintptr_t kPageBytes = 4096;

 private:
  void wake_readers(const uint8_t* dst, uint64_t len, Ps first_ps, uint32_t unit_bytes, Ps interval_ps);
  void wake_at(Sleeper& s, Ps t);

  PageMultimap<Sleeper*> m_pages;  // by 4 KiB page watched
  size_t m_sleepers = 0;
};

}  // namespace symsim
