#include "models/nvidia/mem_order.h"

#include "models/nvidia/nvidia_observer.h"
#include "models/nvidia/nvidia_system.h"

#include <fmt/format.h>

#include <algorithm>

namespace symsim::nv {

namespace {

// Forgets the posted sets landed by `t_ps` (a word's, or a watch's); O(1) a set.
template <typename Refs, typename SetOf>
void drop_landed(Refs& refs, Ps t_ps, SetOf set_of) {
  refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const auto& r) { return set_of(r).landed_by(t_ps); }), refs.end());
}

// Adds the posted sets of `from` not landed by `now_ps` to `into` (one entry per set).
void merge_posted(std::vector<PostedRef>& into, const std::vector<PostedRef>& from, Ps now_ps) {
  for (const PostedRef& r : from) {
    if (r.set->landed_by(now_ps)) continue;
    auto same = std::find_if(into.begin(), into.end(), [&](const PostedRef& x) { return x.set == r.set; });
    if (same != into.end()) {
      if (!r.reported.empty()) {
        same->reported.resize(r.reported.size());
        for (size_t i = 0; i < r.reported.size(); ++i) same->reported[i] = same->reported[i] || r.reported[i];
      }
      continue;
    }
    if (into.size() >= kPostedCap) into.erase(into.begin());
    into.push_back(r);
  }
}

}  // namespace

void merge_watches_nonempty(Watches& into, const Watches& from, Ps now_ps) {
  for (const FlagWatch& w : from) {
    auto same = std::find_if(into.begin(), into.end(), [&](const FlagWatch& x) { return x.flag == w.flag; });
    if (same == into.end()) {
      FlagWatch copy{w.flag, w.flag_writer, {}, w.by_rules, {}};
      copy.unordered.add_all(w.unordered, now_ps);
      if (!w.posted.empty()) merge_posted(copy.posted, w.posted, now_ps);
      if (copy.unordered.empty() && copy.by_rules.empty() && copy.posted.empty()) continue;
      if (into.size() >= 16) into.erase(into.begin());
      into.push_back(std::move(copy));
    } else {
      same->unordered.add_all(w.unordered, now_ps);
      same->by_rules.add_all(w.by_rules, 0);
      same->by_rules.cap(kUnfencedCap);
      if (!w.posted.empty()) merge_posted(same->posted, w.posted, now_ps);
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
  r.releaser = t.reader;
  r.scope = scope;
  r.carried.add_all(t.own, t_ps);
  r.carried.add_all(t.inherited, t_ps);
  if (scope != Scope::Sys)
    for (const InFlightWrite& w : t.unfenced.writes())
      if (!in_scope(w, scope, t.place.gpu)) r.carried_unfenced.add(w);
  merge_watches(r.watches, t.watches, t_ps);
  return r;
}

void OrderModel::wrote(ThreadOrder& t, const InFlightWrite& w) {
  t.unfenced.add(w);
  t.unfenced.cap(kUnfencedCap);
}

void OrderModel::released(ThreadOrder& t, Scope scope) const {
  if (t.unfenced.empty()) return;
  if (scope == Scope::Sys) return t.unfenced.clear();
  t.unfenced.erase_if([&](const InFlightWrite& w) { return in_scope(w, scope, t.place.gpu); });
}

WriteSet OrderModel::unordered(const ThreadOrder& t, Ps t_ps) const {
  WriteSet u;
  u.add_all(t.own, t_ps);
  u.add_all(t.inherited, t_ps);
  u.add_all(t.bulk, t_ps);
  return u;
}

void WordTable::add(uintptr_t addr, WordState s) {
  if (2 * (m_states.size() + 1) > m_keys.size()) {
    std::vector<uintptr_t> keys(m_keys.size() * 2);
    std::vector<uint32_t> index(keys.size());
    m_keys.swap(keys);
    m_index.swap(index);
    --m_shift;
    for (size_t j = 0; j < keys.size(); ++j) {
      if (keys[j] == 0) continue;
      size_t i = home(keys[j]);
      while (m_keys[i] != 0) i = (i + 1) & (m_keys.size() - 1);
      m_keys[i] = keys[j];
      m_index[i] = index[j];
    }
  }
  size_t i = home(addr);
  while (m_keys[i] != 0) i = (i + 1) & (m_keys.size() - 1);
  m_keys[i] = addr;
  m_index[i] = static_cast<uint32_t>(m_states.size());
  m_states.push_back(std::move(s));
}

void OrderModel::word_written(uintptr_t addr, WordState s, bool rmw) {
  WordState* found = m_words.find(addr);
  if (!found) {
    if (s.releases.empty() && s.unordered.empty() && s.unordered_by_rules.empty() && s.posted.empty())
      return;  // nothing to remember
    m_words.add(addr, std::move(s));
    return;
  }
  if (!rmw) {
    *found = std::move(s);
    return;
  }
  // Release sequence: an RMW continues what the word already publishes.
  WordState& w = *found;
  w.writer = s.writer;
  for (auto& p : s.posted) {
    if (w.posted.size() >= kPostedCap) w.posted.erase(w.posted.begin());
    w.posted.push_back(std::move(p));
  }
  for (ReleaseInfo& r : s.releases) w.releases.push_back(std::move(r));
  for (const InFlightWrite& x : s.unordered.writes()) w.unordered.add(x);
  for (const InFlightWrite& x : s.unordered_by_rules.writes()) w.unordered_by_rules.add(x);
  w.unordered_by_rules.cap(kUnfencedCap);
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
      // Synchronised: the releasing thread's in-scope writes are ordered before this thread.
      for (FlagWatch& fw : t.watches)
        fw.by_rules.erase_if([&](const InFlightWrite& w) {
          return w.writer.kind == WriterKind::Thread && w.writer.gpu == r.releaser.gpu &&
                 w.writer.cta == r.releaser.cta && w.writer.thread == r.releaser.thread &&
                 in_scope(w, r.scope, r.releaser.gpu);
        });
      if (r.carried_unfenced.empty()) continue;
      // Synchronised: what the release carried is ordered before this thread.
      for (const InFlightWrite& w : r.carried_unfenced.writes()) {
        t.unfenced.add(w);
        for (FlagWatch& fw : t.watches) fw.by_rules.remove(w.begin, w.end);
      }
      t.unfenced.cap(kUnfencedCap);
    }
  }
}

void OrderModel::word_read(ThreadOrder& t, uintptr_t addr, Sem sem, Scope scope, Ps t_ps) {
  WordState* found = m_words.find(addr);
  if (!found) return;
  WordState& w = *found;
  w.unordered.prune(t_ps);
  if (!w.posted.empty()) drop_landed(w.posted, t_ps, [](const auto& p) -> const PostedWrites& { return *p; });
  // Only a strong read of a word makes it a flag for happens-before (weak reads are data).
  const bool by_rules = sem != Sem::Weak && !w.unordered_by_rules.empty();
  if (!w.unordered.empty() || by_rules || !w.posted.empty()) {
    FlagWatch watch{addr, w.writer, w.unordered, by_rules ? w.unordered_by_rules : WriteSet{}, {}};
    for (const auto& p : w.posted) watch.posted.push_back({p, {}});
    merge_watches(t.watches, {std::move(watch)}, t_ps);
  }
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

void OrderModel::barrier_arrive(ThreadOrder& t, Ps& t_ps, SyncCarry& carry, bool wait) const {
  if (wait) t_ps = std::max(t_ps, release_wait_ps(t, Scope::Cta));
  carry.writes.add_all(t.own, t_ps);
  carry.writes.add_all(t.inherited, t_ps);
  released(t, Scope::Cta);
  if (!t.unfenced.empty()) {
    carry.unfenced.add_all(t.unfenced, 0);
    carry.unfenced.cap(kUnfencedCap);
  }
  merge_watches(carry.watches, t.watches, t_ps);
}

void OrderModel::barrier_leave(ThreadOrder& t, const SyncCarry& carry, Ps t_ps) {
  t.inherited.add_all(carry.writes, t_ps);
  if (!carry.unfenced.empty()) {
    t.unfenced.add_all(carry.unfenced, 0);
    t.unfenced.cap(kUnfencedCap);
  }
  merge_watches(t.watches, carry.watches, t_ps);
}

Ps OrderModel::read_wait_ps(const ThreadOrder& t, uintptr_t begin, uintptr_t end, Ps floor_ps) {
  Ps t_ps = floor_ps;
  if (t.own.bound_ps() > t_ps) t_ps = std::max(t_ps, t.own.overlap_visible_ps(begin, end));
  if (t.inherited.bound_ps() > t_ps) t_ps = std::max(t_ps, t.inherited.overlap_visible_ps(begin, end));
  return t_ps;
}

void OrderModel::report(const ThreadOrder& t, const FlagWatch& w, const InFlightWrite& x, uintptr_t begin,
                        uintptr_t end, Ps t_ps, bool observed, const char* file, int line) {
  ++m_reports;
  if (!m_hooks.active()) return;
  WriterRef reader = t.reader;
  reader.file = file;
  reader.line = line;
  FlagDataRead r;
  r.gpu = t.place.gpu;
  r.reader = reader;
  r.begin = begin;
  r.end = end;
  r.flag = w.flag;
  r.flag_writer = w.flag_writer;
  r.data_begin = x.begin;
  r.data_end = x.end;
  r.data_visible_ps = x.visible_ps;
  r.data_writer = x.writer;
  r.data_remote = gpu_of(x.begin) != x.writer.gpu;
  r.landed = !observed;
  r.t = t_ps;
  m_hooks.emit<&NvidiaObserver::on_flag_data_read>(r);
}

bool OrderModel::read_posted(const ThreadOrder& t, FlagWatch& w, uintptr_t begin, uintptr_t end, Ps t_ps,
                             const char* file, int line) {
  bool reported = false;
  for (PostedRef& r : w.posted) {
    // A set landed by now has no write left to read early: skipped without its writes.
    if (reported || r.set->landed_by(t_ps)) continue;
    const std::vector<InFlightWrite>& writes = r.set->writes();
    for (size_t k = 0; k < writes.size() && !reported; ++k) {
      const InFlightWrite& x = writes[k];
      if (x.begin >= end || begin >= x.end || x.visible_ps <= t_ps || (!r.reported.empty() && r.reported[k])) continue;
      report(t, w, x, begin, end, t_ps, true, file, line);
      r.reported.resize(writes.size());
      r.reported[k] = true;
      reported = true;
    }
  }
  drop_landed(w.posted, t_ps, [](const PostedRef& r) -> const PostedWrites& { return *r.set; });
  return reported;
}

void OrderModel::data_read(ThreadOrder& t, uintptr_t begin, uintptr_t end, Ps t_ps, const char* file, int line) {
  for (size_t i = 0; i < t.watches.size();) {
    FlagWatch& w = t.watches[i];
    w.unordered.prune(t_ps);
    if (const InFlightWrite* stale = w.unordered.stale_at(begin, end, t_ps)) {
      const InFlightWrite copy = *stale;  // one report per stale range
      report(t, w, copy, begin, end, t_ps, true, file, line);
      w.unordered.remove(copy.begin, copy.end);
      w.by_rules.remove(copy.begin, copy.end);
    } else if (!w.posted.empty() && read_posted(t, w, begin, end, t_ps, file, line)) {
      // one report per read and watch, as above
    } else if (const InFlightWrite* early = w.by_rules.stale_at(begin, end, 0)) {
      const InFlightWrite copy = *early;
      const bool own = copy.writer.kind == WriterKind::Thread && copy.writer.gpu == t.reader.gpu &&
                       copy.writer.cta == t.reader.cta && copy.writer.thread == t.reader.thread;
      // Not a hazard: the reader's own write, or one ordered before the reader some other way.
      if (!own && !t.unfenced.stale_at(copy.begin, copy.end, 0)) report(t, w, copy, begin, end, t_ps, false, file, line);
      w.by_rules.remove(copy.begin, copy.end);
    }
    if (w.unordered.empty() && w.by_rules.empty() && w.posted.empty()) {
      t.watches.erase(t.watches.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

}  // namespace symsim::nv
