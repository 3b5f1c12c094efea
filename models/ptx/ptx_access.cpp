// Loads, stores and read-modify-writes of the PTX machine.
#include <stdexcept>

#include "models/ptx/ptx_machine.h"

namespace symsim::ptx {

AccessClass Machine::class_of(const ThreadState& t, const Instr& in) const {
  const Address& a = program_.addrs.at(in.addr);
  return AccessClass{in.proxy, t.place.cta_uid(), a.generic, a.physical};
}

AccessInfo Machine::info_of(const ThreadState& t, const Instr& in, Sem sem) const {
  return AccessInfo{t.place, is_strong(sem), in.scope, in.proxy, program_.addrs.at(in.addr).generic};
}

size_t Machine::pick_read(size_t n) {
  if (read_bias_ != 0 && rng_.coin(70)) return read_bias_ > 0 ? n - 1 : 0;
  return rng_.below(n);
}

void Machine::acquire(ThreadState& t, const std::vector<Release>& releases, Scope scope) {
  // Synchronises only if the release's start and the acquire are morally strong.
  for (const Release& r : releases) {
    const Scope needed = common_scope(r.origin, t.place);
    const bool same_thread = r.origin.thread == t.place.thread;
    if (same_thread || (r.scope >= needed && scope >= needed)) t.view.join(r.view);
  }
}

void Machine::observe(ThreadState& t, const Instr& in, Sem sem, const Message& m) {
  // Only a morally strong read-from is an observation: the read then orders later
  // accesses after the write (coherence), and a strong read may start an acquire pattern.
  const AccessInfo reader = info_of(t, in, sem);
  if (m.is_init || !morally_strong(m.writer, reader)) return;
  t.view.record(class_of(t, in), m.ts);
  if (!reader.strong) return;
  merge_releases(t.observed, m.releases);
  merge_releases(t.observed_at[reader.generic_addr], m.releases);
}

std::vector<Release> Machine::releases_for_write(ThreadState& t, const Instr& in, Sem sem) {
  std::vector<Release> out;
  if (!is_strong(sem)) return out;  // a weak write ends no release pattern
  for (int s = 0; s < 3; ++s) {
    if (t.fence_release[s]) out.push_back(Release{t.place, static_cast<Scope>(s), *t.fence_release[s]});
  }
  const int generic = program_.addrs.at(in.addr).generic;
  auto earlier = t.store_release.find(generic);
  if (earlier != t.store_release.end()) merge_releases(out, earlier->second);
  if (has_release(sem)) {
    std::vector<Release> own{Release{t.place, in.scope, t.view}};
    merge_releases(out, own);
    merge_releases(t.store_release[generic], own);
  }
  return out;
}

void Machine::do_load(ThreadState& t, const Instr& in) {
  const AccessClass c = class_of(t, in);
  const std::vector<Message>& msgs = memory_.at(c.physical);
  const double bound = t.view.bound_for(c);
  std::vector<size_t> candidates;
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (msgs[i].ts >= bound) candidates.push_back(i);
  }
  const Message m = msgs[candidates[pick_read(candidates.size())]];
  t.regs[in.dst] = m.value;
  observe(t, in, in.sem, m);
  if (has_acquire(in.sem)) acquire(t, t.observed_at[c.generic], in.scope);
}

void Machine::do_store(ThreadState& t, const Instr& in) {
  const AccessClass c = class_of(t, in);
  const AccessInfo info = info_of(t, in, in.sem);
  const std::vector<double> slots = memory_.write_slots(c.physical, t.view.bound_for(c), info);
  if (slots.empty()) throw std::logic_error("no slot for a store");
  Message m;
  m.ts = slots[rng_.below(slots.size())];
  m.value = value_of(t, in.a);
  m.writer = info;
  t.view.record(c, m.ts);
  m.releases = releases_for_write(t, in, in.sem);
  memory_.insert(c.physical, std::move(m));
}

void Machine::do_rmw(ThreadState& t, const Instr& in) {
  const Sem read_sem = has_acquire(in.sem) ? Sem::Acquire : Sem::Relaxed;
  const Sem write_sem = has_release(in.sem) ? Sem::Release : Sem::Relaxed;
  const AccessClass c = class_of(t, in);
  const AccessInfo info = info_of(t, in, write_sem);
  const std::vector<Message>& msgs = memory_.at(c.physical);
  const double bound = t.view.bound_for(c);
  std::vector<std::pair<size_t, double>> candidates;  // message read, timestamp written
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (msgs[i].ts < bound) continue;
    if (auto ts = memory_.rmw_slot(c.physical, i, info)) candidates.emplace_back(i, *ts);
  }
  if (candidates.empty()) throw std::logic_error("no slot for an atomic");
  const auto [index, ts] = candidates[pick_read(candidates.size())];
  const Message read = msgs[index];

  // Read half.
  observe(t, in, read_sem, read);
  if (has_acquire(read_sem)) acquire(t, t.observed_at[c.generic], in.scope);
  if (in.kind == OpKind::Atom) t.regs[in.dst] = read.value;

  // Write half, right after the message read.
  Message m;
  m.ts = ts;
  m.value = rmw_result(in.alu, read.value, value_of(t, in.a), value_of(t, in.b));
  m.writer = info;
  m.is_rmw = true;
  m.read_ts = read.ts;
  t.view.record(c, m.ts);
  m.releases = releases_for_write(t, in, write_sem);
  // Release sequences: an RMW continues the observation chain of the write it read.
  if (!read.is_init && morally_strong(read.writer, info)) merge_releases(m.releases, read.releases);
  memory_.insert(c.physical, std::move(m));
}

}  // namespace symsim::ptx
