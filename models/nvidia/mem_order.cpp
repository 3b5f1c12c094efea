#include "models/nvidia/mem_order.h"

#include "models/nvidia/nvidia_system.h"

#include <fmt/format.h>

#include <algorithm>

namespace symsim::nv {

void merge_watches(Watches& into, const Watches& from, Ps now_ps) {
  for (const FlagWatch& w : from) {
    auto same = std::find_if(into.begin(), into.end(), [&](const FlagWatch& x) { return x.flag == w.flag; });
    if (same == into.end()) {
      FlagWatch copy{w.flag, w.flag_writer, {}};
      copy.unordered.add_all(w.unordered, now_ps);
      if (copy.unordered.empty()) continue;
      if (into.size() >= 16) into.erase(into.begin());
      into.push_back(std::move(copy));
    } else {
      same->unordered.add_all(w.unordered, now_ps);
    }
  }
}

Ps OrderModel::release_wait_ps(const ThreadOrder& t, Scope scope) const {
  auto in_scope = [&](const InFlightWrite& w) { return scope == Scope::Sys || gpu_of(w.begin) == t.place.gpu; };
  return std::max(t.own.latest_ps(in_scope), t.inherited.latest_ps(in_scope));
}

ReleaseInfo OrderModel::make_release(const ThreadOrder& t, Scope scope, Ps t_ps) const {
  ReleaseInfo r;
  r.origin = t.place;
  r.scope = scope;
  r.carried.add_all(t.own, t_ps);
  r.carried.add_all(t.inherited, t_ps);
  merge_watches(r.watches, t.watches, t_ps);
  return r;
}

WriteSet OrderModel::unordered(const ThreadOrder& t, Ps t_ps) const {
  WriteSet u;
  u.add_all(t.own, t_ps);
  u.add_all(t.inherited, t_ps);
  u.add_all(t.bulk, t_ps);
  return u;
}

void OrderModel::word_written(uintptr_t addr, WordState s, bool rmw) {
  auto it = m_words.find(addr);
  if (it == m_words.end()) {
    if (s.releases.empty() && s.unordered.empty()) return;  // nothing to remember
    m_words.emplace(addr, std::move(s));
    return;
  }
  if (!rmw) {
    it->second = std::move(s);
    return;
  }
  // Release sequence: an RMW continues what the word already publishes.
  WordState& w = it->second;
  w.writer = s.writer;
  for (ReleaseInfo& r : s.releases) w.releases.push_back(std::move(r));
  for (const InFlightWrite& x : s.unordered.writes()) w.unordered.add(x);
  if (w.releases.size() > 64) w.releases.erase(w.releases.begin(), w.releases.end() - 64);
}

void OrderModel::acquire(ThreadOrder& t, const std::vector<ReleaseInfo>& releases, Scope scope, Ps t_ps) {
  for (const ReleaseInfo& r : releases) {
    // Synchronises only when the release and the acquire are morally strong.
    const Scope needed = ptx::common_scope(r.origin, t.place);
    const bool same = r.origin.thread == t.place.thread;
    if (same || (r.scope >= needed && scope >= needed)) {
      t.inherited.add_all(r.carried, t_ps);
      merge_watches(t.watches, r.watches, t_ps);
    }
  }
}

void OrderModel::word_read(ThreadOrder& t, uintptr_t addr, Sem sem, Scope scope, Ps t_ps) {
  auto it = m_words.find(addr);
  if (it == m_words.end()) return;
  WordState& w = it->second;
  w.unordered.prune(t_ps);
  if (!w.unordered.empty()) merge_watches(t.watches, {FlagWatch{addr, w.writer, w.unordered}}, t_ps);
  if (w.releases.empty() || sem == Sem::Weak) return;
  if (ptx::has_acquire(sem)) {
    acquire(t, w.releases, scope, t_ps);
  } else if (t.observed.size() < 64) {
    t.observed.insert(t.observed.end(), w.releases.begin(), w.releases.end());
  }
}

void OrderModel::fence_acquire(ThreadOrder& t, Scope scope, Ps t_ps) {
  acquire(t, t.observed, scope, t_ps);
  t.observed.clear();
}

void OrderModel::barrier_arrive(ThreadOrder& t, Ps& t_ps, SyncCarry& carry) const {
  t_ps = std::max(t_ps, release_wait_ps(t, Scope::Cta));
  carry.writes.add_all(t.own, t_ps);
  carry.writes.add_all(t.inherited, t_ps);
  merge_watches(carry.watches, t.watches, t_ps);
}

void OrderModel::barrier_leave(ThreadOrder& t, const SyncCarry& carry, Ps t_ps) {
  t.inherited.add_all(carry.writes, t_ps);
  merge_watches(t.watches, carry.watches, t_ps);
}

Ps OrderModel::read_wait_ps(const ThreadOrder& t, uintptr_t begin, uintptr_t end) {
  return std::max(t.own.overlap_visible_ps(begin, end), t.inherited.overlap_visible_ps(begin, end));
}

void OrderModel::data_read(ThreadOrder& t, uintptr_t begin, uintptr_t end, Ps t_ps, const char* file, int line) {
  for (size_t i = 0; i < t.watches.size();) {
    FlagWatch& w = t.watches[i];
    w.unordered.prune(t_ps);
    if (const InFlightWrite* stale = w.unordered.stale_at(begin, end, t_ps)) {
      ++m_reports;
      if (m_hooks.active()) {
        ModelHazard h;
        h.id = "flag_before_data";
        h.pe = t.place.gpu;
        h.addr = begin;
        h.time_ps = t_ps;
        h.detail = fmt::format(
            "GPU {} CTA {} thread {}{} read {} B at {} after the flag at {} was observed (by it or a thread it "
            "synchronised with), but bytes "
            "[{}, +{}) the flag's writer had ordered before it land only at {:.3f} us; flag written by {}, "
            "data written by {}",
            t.reader.gpu, t.reader.cta, t.reader.thread, file ? " at " + site_text(file, line) : "", end - begin,
            addr_text(begin), addr_text(w.flag), addr_text(stale->begin), stale->end - stale->begin, ps_to_us(stale->visible_ps), w.flag_writer.describe(),
            stale->writer.describe());
        m_hooks.emit(&Observer::on_model_hazard, h);
      }
      // One report per stale range.
      const InFlightWrite copy = *stale;
      w.unordered.remove(copy.begin, copy.end);
    }
    if (w.unordered.empty()) {
      t.watches.erase(t.watches.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

}  // namespace symsim::nv
