#include "models/nvidia/write_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace symsim::nv {

namespace {
// The source path from the project's top folder on ("kernels/nvlink/x.cu"), so reports do not
// depend on where the tree was built.
const char* short_file(const char* f) {
  for (const char* top : {"/kernels/", "/models/", "/tests/", "/sim/", "/bench/"})
    if (const char* p = std::strstr(f, top)) return p + 1;
  return f;
}
}  // namespace

std::string site_text(const char* file, int line) { return file ? fmt::format("{}:{}", short_file(file), line) : ""; }

std::string WriterRef::describe() const {
  const std::string at = file ? " at " + site_text(file, line) : "";
  switch (kind) {
    case WriterKind::Thread:
      return fmt::format("GPU {} CTA {} thread {}{}", gpu, cta, thread, at);
    case WriterKind::Tma:
      return fmt::format("TMA store of GPU {} CTA {} thread {}{}", gpu, cta, thread, at);
    case WriterKind::Nic:
      return fmt::format("NIC of GPU {} (posted by CTA {} thread {}{})", gpu, cta, thread, at);
    case WriterKind::Host:
      return fmt::format("host program of GPU {}", gpu);
  }
  return "?";
}

void WriteSet::add(const InFlightWrite& w) {
  if (w.end <= w.begin) return;
  m_bound_ps = std::max(m_bound_ps, w.visible_ps);
  // First range that ends at or after w.begin (touching counts).
  auto lo = std::lower_bound(m_writes.begin(), m_writes.end(), w.begin,
                             [](const InFlightWrite& x, uintptr_t b) { return x.end < b; });
  auto hi = lo;
  InFlightWrite merged = w;
  while (hi != m_writes.end() && hi->begin <= w.end) {
    merged.begin = std::min(merged.begin, hi->begin);
    merged.end = std::max(merged.end, hi->end);
    if (hi->visible_ps > merged.visible_ps) {
      merged.visible_ps = hi->visible_ps;
      merged.writer = hi->writer;
    }
    ++hi;
  }
  lo = m_writes.erase(lo, hi);
  m_writes.insert(lo, merged);
}

void WriteSet::add_all(const WriteSet& other, Ps now_ps) {
  for (const InFlightWrite& w : other.m_writes)
    if (w.visible_ps > now_ps) add(w);
}

void WriteSet::prune(Ps now_ps) {
  erase_if([&](const InFlightWrite& w) { return w.visible_ps <= now_ps; });
}

Ps WriteSet::overlap_visible_ps(uintptr_t begin, uintptr_t end) const {
  Ps t = 0;
  auto it = std::lower_bound(m_writes.begin(), m_writes.end(), begin,
                             [](const InFlightWrite& x, uintptr_t b) { return x.end <= b; });
  for (; it != m_writes.end() && it->begin < end; ++it) t = std::max(t, it->visible_ps);
  return t;
}

const InFlightWrite* WriteSet::stale_at(uintptr_t begin, uintptr_t end, Ps t_ps) const {
  auto it = std::lower_bound(m_writes.begin(), m_writes.end(), begin,
                             [](const InFlightWrite& x, uintptr_t b) { return x.end <= b; });
  for (; it != m_writes.end() && it->begin < end; ++it)
    if (it->visible_ps > t_ps) return &*it;
  return nullptr;
}

void WriteSet::cap(size_t n) {
  if (m_writes.size() <= n) return;
  // Keep the n that land last, then restore the address order.
  const auto drop = static_cast<std::ptrdiff_t>(m_writes.size() - n);
  std::nth_element(m_writes.begin(), m_writes.begin() + drop, m_writes.end(),
                   [](const InFlightWrite& a, const InFlightWrite& b) { return a.visible_ps < b.visible_ps; });
  m_writes.erase(m_writes.begin(), m_writes.begin() + drop);
  std::sort(m_writes.begin(), m_writes.end(), [](const InFlightWrite& a, const InFlightWrite& b) { return a.begin < b.begin; });
}

void WriteSet::remove(uintptr_t begin, uintptr_t end) {
  erase_if([&](const InFlightWrite& w) { return w.begin < end && begin < w.end; });
}

}  // namespace symsim::nv
