#include "models/memory/memory_watch.h"
#include "models/core/sim_now.h"

#include <algorithm>

namespace symsim {

namespace {
uintptr_t page_of(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) / MemoryWatch::kPageBytes; }
Ps now_ps() { return sim_now_ps(); }
}  // namespace

void MemoryWatch::add(Sleeper& s, Ps first_write_ps) {
  s.wake_ps = kNever;
  for (uintptr_t p = page_of(s.begin); p <= page_of(s.end - 1); ++p) m_pages.insert(p, &s);
  ++m_sleepers;
  if (first_write_ps != kNever) wake_at(s, first_write_ps);
}

void MemoryWatch::remove(Sleeper& s) {
  for (uintptr_t p = page_of(s.begin); p <= page_of(s.end - 1); ++p) m_pages.erase(p, &s);
  --m_sleepers;
  s.wake.cancel();
  s.wake_ps = kNever;
}

Ps MemoryWatch::first_touch_ps(const uint8_t* begin, const uint8_t* dst, Ps first_ps, uint32_t unit_bytes,
                               Ps interval_ps) {
  if (unit_bytes == 0 || begin <= dst) return first_ps;
  return first_ps + static_cast<Ps>(begin - dst) / unit_bytes * interval_ps;
}

void MemoryWatch::wake_readers(const uint8_t* dst, uint64_t len, Ps first_ps, uint32_t unit_bytes, Ps interval_ps) {
  const uint8_t* end = dst + len;
  for (uintptr_t p = page_of(dst); p <= page_of(end - 1); ++p) {
    m_pages.for_each(p, [&](Sleeper* s) {
      if (s->begin < end && dst < s->end) wake_at(*s, first_touch_ps(s->begin, dst, first_ps, unit_bytes, interval_ps));
    });
  }
}

void MemoryWatch::wake_at(Sleeper& s, Ps t) {
  if (t >= s.wake_ps) return;
  s.wake_ps = t;
  const Ps now = now_ps();
  // A later notification of an sc_event is dropped when an earlier one is pending.
  s.wake.notify(sc_core::sc_time::from_value(t > now ? t - now : 0));
}

}  // namespace symsim
