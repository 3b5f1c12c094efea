// Polling loops: spin detection (what a block re-reads with no effect in between), deadlock
// detection (every coroutine polls or waits and nothing is in flight), sleeping through a
// steady polling loop until a write may change what it reads, and the stores that wake it.
#include <algorithm>
#include <cstring>

#include "kernels/shim/ascend/src/world.h"
#include "models/ascend/aiv_core.h"
#include "symsim/simt.h"

namespace symsim::shim {

// The reads a polling block has made by `at`, counting those it sleeps through.
uint64_t polls_at(const SpinState& sp, Ps at) {
  if (!sp.asleep || sp.period_ps == 0) return sp.polls;
  return sp.polls + (at > sp.seen_ps ? (at - sp.seen_ps) / sp.period_ps : 0);
}

namespace {

// True when no coroutine can make progress: every unfinished block polls with no effect or
// waits in a barrier, every unfinished host waits on an event, no engine has a doorbell
// queued and nothing is in flight to land in memory.
bool block_busy(const std::unique_ptr<BlockState>& b) {
  return b && !b->finished && b->waiting_on.empty() && polls_at(b->spin, now_ps()) < kSpinPolls;
}

bool quiescent() {
  World& w = world();
  // Every spinning core asks this now and then, so a full scan would cost O(PEs) per poll:
  // first try the witnesses of progress found last time, which are usually still busy.
  if (!w.sys->visibility().empty()) return false;
  QuiescentHint& hint = w.quiescent_hint;
  if (hint.pe < w.blocks.size() && hint.core < w.blocks[hint.pe].size() && block_busy(w.blocks[hint.pe][hint.core]))
    return false;
  if (hint.engine_pe < w.sys->n_pes() && !w.sys->engine(hint.engine_pe).idle()) return false;
  for (const HostState& h : w.hosts)
    if (!h.finished && h.waiting_on.empty()) return false;
  for (size_t pe = 0; pe < w.blocks.size(); ++pe)
    for (size_t c = 0; c < w.blocks[pe].size(); ++c)
      if (block_busy(w.blocks[pe][c])) {
        hint.pe = pe;
        hint.core = c;
        return false;
      }
  for (int pe = 0; pe < w.sys->n_pes(); ++pe)
    if (!w.sys->engine(pe).idle()) {
      hint.engine_pe = pe;
      return false;
    }
  return true;
}


bool same_site(CallSite a, CallSite b) { return a.pc == b.pc; }

// A polling loop reads the same unchanged bytes every period: rather than run each poll, the
// core sleeps until a write may change them and wakes at the poll that would first see it
// (the observation at t + k * period). Timing is that of spinning; the kernel's own loop runs
// fewer iterations (SpinState::polls counts them all).
void sleep_while_unchanged(AivCore& c, BlockState& b, const uint8_t* addr, uint32_t bytes, CallSite site) {
  SpinState& sp = b.spin;
  Ps t = c.local_ps();
  const uint64_t calls = c.context().shim_calls;
  const bool same = sp.seen_addr == addr && sp.seen_bytes == bytes && same_site(sp.seen_site, site) && !sp.effect &&
                    calls == sp.seen_calls && std::memcmp(sp.seen, addr, bytes) == 0;
  if (!same || t <= sp.seen_ps) {
    sp.seen_calls = calls;
    sp.seen_addr = addr;
    sp.seen_bytes = bytes;
    sp.seen_site = site;
    std::memcpy(sp.seen, addr, bytes);
    sp.seen_ps = t;
    sp.period_ps = 0;
    sp.repeats = 0;
    sp.effect = false;
    return;
  }
  const Ps period = t - sp.seen_ps;
  sp.seen_ps = t;
  sp.repeats = period == sp.period_ps ? sp.repeats + 1 : 1;
  sp.period_ps = period;
  if (sp.repeats < 2) return;  // three equal reads at a steady period: a polling loop
  // Reads the loop may still make after this one before it gives up (UINT64_MAX: no limit).
  uint64_t left = sp.budget == UINT64_MAX ? UINT64_MAX : sp.budget - 1;
  MemoryWatch& watch = *system().watch();
  if (!sp.sleeper) sp.sleeper = std::make_unique<MemoryWatch::Sleeper>();
  MemoryWatch::Sleeper& s = *sp.sleeper;
  s.begin = addr;
  s.end = addr + bytes;
  while (left > 0) {
    // Wake no later than the read at which a spinning loop would give up, or look for a
    // deadlock (every kSpinPolls reads, as note_poll does).
    const uint64_t to_check = kSpinPolls - sp.polls % kSpinPolls;
    const uint64_t most = std::min(left, to_check);
    const Ps first = std::min(system().visibility().earliest_write_ps(s.begin, s.end), t + most * period);
    watch.add(s, first);
    sp.asleep = true;
    c.wait(s.wake);
    sp.asleep = false;
    watch.remove(s);
    // The first read at or after the wake-up, on the loop's period.
    const uint64_t k = std::min<uint64_t>(std::max<Ps>(1, (c.local_ps() - t + period - 1) / period), most);
    t += k * period;
    c.wait_until(t);
    c.observe();
    sp.polls += k;
    sp.skipped += k;
    if (left != UINT64_MAX) left -= k;
    sp.seen_ps = t;
    if (sp.effect || std::memcmp(sp.seen, addr, bytes) != 0) return;
    if (sp.polls >= kSpinPolls && sp.polls % kSpinPolls == 0 && !world().deadlock && quiescent()) {
      world().deadlock = true;
      sc_core::sc_stop();
      return;
    }
  }
}

}  // namespace

namespace {

// True when this poll saw bytes the core had not seen at that place among its last polls
// (records them). Only the first kMaxBytes count: a poll of a flag or CQE changes there.
bool saw_something_new(SpinState& sp, const void* addr, uint64_t bytes) {
  const auto* p = static_cast<const uint8_t*>(addr);
  // FNV-1a over 8-byte words, then the tail bytes: each step is one-to-one in what it reads, so
  // a change within one word always changes the hash (a byte at a time cost ~250 instructions
  // per MoE poll).
  const uint64_t n = std::min<uint64_t>(bytes, SpinState::kMaxBytes);
  uint64_t hash = 0xcbf29ce484222325ull;
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    hash = (hash ^ word) * 0x100000001b3ull;
  }
  for (; i < n; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  for (SpinState::Seen& s : sp.recent)
    if (s.addr == addr && s.bytes == bytes) {
      const bool changed = s.hash != hash;
      s.hash = hash;
      return changed;
    }
  sp.recent[sp.recent_next] = {addr, bytes, hash};
  sp.recent_next = (sp.recent_next + 1) % SpinState::kRecent;
  return true;
}

}  // namespace

void note_poll(const void* addr, uint64_t bytes, CallSite site, uint64_t watch_bytes) {
  AivCore& c = core();
  BlockState& b = *world().blocks[c.pe()][c.core()];
  SpinState& sp = b.spin;
  // A poll that saw something new is progress, like a write: only re-reads of unchanged bytes
  // count toward a deadlock (else a loop reaping many ready CQEs looks stuck).
  if (saw_something_new(sp, addr, bytes)) sp.polls = 0;
  if (sp.polls == 0) sp.since_ps = c.local_ps();
  sp.addr = addr;
  sp.bytes = bytes;
  if (site.pc) sp.site = site;
  ++sp.polls;
  // Checking costs a scan of every block: do it now and then while the loop goes on.
  if (sp.polls >= kSpinPolls && sp.polls % kSpinPolls == 0 && !world().deadlock && quiescent()) {
    world().deadlock = true;
    sc_core::sc_stop();  // the runner reports who waits on what
    return;
  }
  if (watch_bytes == 0) watch_bytes = bytes;
  if (system().watch() && watch_bytes <= SpinState::kMaxBytes && watch_bytes > 0 && !simt::in_vf())
    sleep_while_unchanged(c, b, static_cast<const uint8_t*>(addr), static_cast<uint32_t>(watch_bytes), site);
}

void note_effect() {
  AivCore* c = AivCore::current();
  if (!c || !has_system()) return;
  note_effect(world(), *c);
}

bool rereads_unchanged(const void* addr, uint64_t bytes) {
  AivCore* c = AivCore::current();
  if (!c || !has_system()) return false;
  const auto& slot = world().blocks[c->pe()][c->core()];
  if (!slot) return false;
  const SpinState& sp = slot->spin;
  return sp.seen_addr == addr && sp.seen_bytes == bytes && std::memcmp(sp.seen, addr, bytes) == 0;
}

void note_store(const void* addr, uint64_t bytes, const char* what, CallSite site) {
  if (!has_system()) return;
  MemoryWatch* watch = system().watch();
  if (watch && !watch->empty()) watch->written(static_cast<const uint8_t*>(addr), bytes, now_ps());
  const ExecContext* x = current_exec();
  if (!x || bytes == 0) return;
  StoreRecord r;
  r.pe = x->pe;
  r.core = x->core ? x->core->core() : -1;
  r.dst = static_cast<const uint8_t*>(addr);
  r.bytes = bytes;
  r.t = x->core ? x->core->local_ps() : now_ps();
  r.what = what;
  r.site = site_ref(site);
  system().hooks().emit<&AscendObserver::on_gm_store>(r);
}

void before_core_store(const void* addr, uint64_t bytes) {
  AivCore* c = AivCore::current();
  if (c) c->before_store(static_cast<const uint8_t*>(addr), bytes);
}

}  // namespace symsim::shim
