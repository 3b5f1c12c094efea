#include "kernels/shim/ascend/src/world.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "models/ascend/aiv_core.h"
#include "models/core/sanitizers.h"
#include "symsim/simt.h"

namespace symsim::shim {

namespace {
std::unique_ptr<World> g_world;
}

World& world() { return *g_world; }
Ps now_ps() { return static_cast<Ps>(sc_core::sc_time_stamp().value()); }

void count_call() {
  ExecContext* x = current_exec();
  if (x && x->uncounted == 0) ++x->shim_calls;
}

AscendSystem& system() {
  count_call();
  return *g_world->sys;
}
bool has_system() { return g_world && g_world->sys; }

HostState& host() {
  ExecContext* ctx = current_exec();
  if (!ctx || !ctx->host) throw std::logic_error("a host API was called outside a host program");
  return *static_cast<HostState*>(ctx->host);
}

AivCore& core() {
  count_call();
  AivCore* c = AivCore::current();
  if (!c) throw std::logic_error("a device API was called outside a kernel");
  return *c;
}

BlockContext& block() {
  AivCore& c = core();
  return world().blocks[c.pe()][c.core()]->ctx;
}

int my_pe() {
  count_call();
  return current_exec() ? current_exec()->pe : -1;
}
int n_pes() { return system().n_pes(); }

void trap(const std::string& why) { throw KernelTrap(why); }

void kernel_printf(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (dump::capture(buf)) return;  // the dump build: into the block's workspace (symsim/ascendc_dump.h)
  AivCore* c = AivCore::current();
  std::fprintf(stdout, "[pe %d aiv %d] %s", c ? c->pe() : my_pe(), c ? c->core() : -1, buf);
}

void host_wait(Ps d) {
  HostState& h = host();
  if (d > 0) sc_core::wait(sc_core::sc_time::from_value(d));
  current_exec() = &h.ctx;
}

void host_barrier(const char* what) {
  World& w = world();
  HostState& h = host();
  const uint64_t gen = w.host_generation;
  if (++w.host_arrived == static_cast<int>(w.hosts.size())) {
    w.host_arrived = 0;
    ++w.host_generation;
    w.host_event.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);  // let the others wake first, in PE order
  } else {
    h.waiting_on = fmt::format("host barrier in {}", what);
    while (w.host_generation == gen) sc_core::wait(w.host_event);
    h.waiting_on.clear();
  }
  current_exec() = &h.ctx;
}

void vector_barrier_all(const char* api) { vector_barrier_all_at(SYMSIM_CALLER(), api); }

void vector_barrier_all_at(CallSite site, const char* api, Ps hop_ps) {
  World& w = world();
  AivCore& c = core();
  BlockState& b = *w.blocks[c.pe()][c.core()];
  c.pipe_barrier(AivPipe::kAll);
  c.sync();
  int expected = 0;
  for (uint32_t n : w.launch_blocks) expected += static_cast<int>(n);
  const uint64_t gen = w.vec_generation;
  w.vec_latest_ps = std::max(w.vec_latest_ps, c.local_ps());
  if (++w.vec_arrived == expected) {
    int rounds = 1;
    while ((1 << rounds) < w.sys->n_pes()) ++rounds;
    w.vec_release_ps = w.vec_latest_ps + rounds * (hop_ps ? hop_ps : ns_to_ps(w.sys->params().aiv_barrier_hop_ns));
    w.vec_arrived = 0;
    w.vec_latest_ps = 0;
    ++w.vec_generation;
    w.vec_event.notify(sc_core::sc_time::from_value(w.vec_release_ps - now_ps()));
    w.sys->hooks().emit(&AscendObserver::on_device_barrier, w.vec_release_ps);
    c.wait_until(w.vec_release_ps);
  } else {
    b.barrier_api = api;
    b.barrier_site = site;
    // This block's place in the arrival order (how many were in when it came), not a count now.
    b.waiting_on = fmt::format("(it was arrival {} of the {} the barrier waits for)", w.vec_arrived, expected);
    while (w.vec_generation == gen) c.wait(w.vec_event);
    b.waiting_on.clear();
  }
}

void start(AscendSystem& sys, std::function<void(int pe)> host_main) {
  g_world = std::make_unique<World>();
  World& w = *g_world;
  w.sys = &sys;
  w.hosts.resize(sys.n_pes());
  w.blocks.resize(sys.n_pes());
  w.launch_blocks.assign(sys.n_pes(), 0);
  for (int pe = 0; pe < sys.n_pes(); ++pe) {
    HostState& h = w.hosts[pe];
    h.pe = pe;
    h.ctx.pe = pe;
    h.ctx.host = &h;
    constexpr size_t kStackBytes = 256 * 1024;
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(kStackBytes);
    sc_core::sc_spawn(
        [&h, host_main]() {
          const CoroutineStackRoot live(kStackBytes);
          current_exec() = &h.ctx;
          host_main(h.pe);
          h.finished = true;
          world().last_activity_ps = std::max(world().last_activity_ps, now_ps());
        },
        fmt::format("host_pe{}", pe).c_str(), &opts);
  }
}

void stop() { g_world.reset(); }

bool all_hosts_finished() {
  for (const HostState& h : g_world->hosts)
    if (!h.finished) return false;
  return true;
}

const std::vector<TrapRecord>& traps() { return g_world->traps; }
Ps last_activity_ps() { return g_world->last_activity_ps; }

std::string PollWait::describe() const {
  return fmt::format("{} {} of PE {} QP {} (at {:#x}) in {}", what, index, pe, qp, reinterpret_cast<uintptr_t>(addr),
                     where(site));
}

namespace {
// The reads a polling block has made by `at`, counting those it sleeps through.
uint64_t polls_at(const SpinState& sp, Ps at) {
  if (!sp.asleep || sp.period_ps == 0) return sp.polls;
  return sp.polls + (at > sp.seen_ps ? (at - sp.seen_ps) / sp.period_ps : 0);
}

}  // namespace

WaitRecord wait_record(int pe, int core, const BlockState& b, Ps at_ps) {
  WaitRecord r;
  r.pe = pe;
  r.core = core;
  r.what = "running";
  r.kernel = b.ctx.kernel ? b.ctx.kernel : "";
  const SpinState& sp = b.spin;
  if (b.waiting.what) {
    r.what = b.waiting.describe();
    r.polling = true;
    r.addr = b.waiting.addr;
    r.bytes = 64;
    if (b.waiting.owner_bit >= 0) r.expected = fmt::format("its owner bit to become {}", b.waiting.owner_bit);
    r.qp_slot = b.waiting.slot;
    r.qp = static_cast<int>(b.waiting.qp);
    r.cqe_index = b.waiting.index;
    const SourceLine at = source_line(b.waiting.site.pc);
    r.file = at.file;
    r.line = at.line;
    r.what = fmt::format("CQE {} of QP {} toward PE {}", b.waiting.index, b.waiting.qp, b.waiting.pe);
  } else if (!b.waiting_on.empty()) {
    r.what = fmt::format("{} at {} {}", b.barrier_api, where(b.barrier_site), b.waiting_on);
    r.in_barrier = true;
  } else if (polls_at(sp, at_ps) >= kSpinPolls) {
    r.polling = true;
    r.addr = sp.addr;
    r.bytes = sp.bytes;
    const SourceLine at = source_line(sp.site.pc);
    r.file = at.file;
    r.line = at.line;
    r.what = "GM (dcci / ld_dev / a GM read in a loop, no write in between)";
  }
  r.polls = polls_at(sp, at_ps);
  r.since_ps = sp.since_ps;
  return r;
}

std::vector<WaitRecord> waiting(Ps at_ps) {
  std::vector<WaitRecord> out;
  for (const HostState& h : g_world->hosts)
    if (!h.finished) {
      WaitRecord r;
      r.pe = h.pe;
      r.core = -1;
      r.what = h.waiting_on.empty() ? "running" : h.waiting_on;
      out.push_back(std::move(r));
    }
  for (size_t pe = 0; pe < g_world->blocks.size(); ++pe)
    for (size_t c = 0; c < g_world->blocks[pe].size(); ++c) {
      const auto& b = g_world->blocks[pe][c];
      if (b && !b->finished) out.push_back(wait_record(static_cast<int>(pe), static_cast<int>(c), *b, at_ps));
    }
  return out;
}

namespace {

// True when no coroutine can make progress: every unfinished block polls with no effect or
// waits in a barrier, every unfinished host waits on an event, no engine has a doorbell
// queued and nothing is in flight to land in memory.
bool block_busy(const std::unique_ptr<BlockState>& b) {
  return b && !b->finished && b->waiting_on.empty() && polls_at(b->spin, now_ps()) < kSpinPolls;
}

bool quiescent() {
  World& w = *g_world;
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

}  // namespace

namespace {

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
    if (sp.polls >= kSpinPolls && sp.polls % kSpinPolls == 0 && !g_world->deadlock && quiescent()) {
      g_world->deadlock = true;
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
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a
  for (uint64_t i = 0; i < std::min<uint64_t>(bytes, SpinState::kMaxBytes); ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
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
  BlockState& b = *g_world->blocks[c.pe()][c.core()];
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
  if (sp.polls >= kSpinPolls && sp.polls % kSpinPolls == 0 && !g_world->deadlock && quiescent()) {
    g_world->deadlock = true;
    sc_core::sc_stop();  // the runner reports who waits on what
    return;
  }
  if (watch_bytes == 0) watch_bytes = bytes;
  if (system().watch() && watch_bytes <= SpinState::kMaxBytes && watch_bytes > 0 && !simt::in_vf())
    sleep_while_unchanged(c, b, static_cast<const uint8_t*>(addr), static_cast<uint32_t>(watch_bytes), site);
}

void note_effect() {
  AivCore* c = AivCore::current();
  if (!c || !g_world) return;
  auto& slot = g_world->blocks[c->pe()][c->core()];
  if (slot) {
    slot->spin.polls = 0;
    slot->spin.effect = true;
  }
}

bool rereads_unchanged(const void* addr, uint64_t bytes) {
  AivCore* c = AivCore::current();
  if (!c || !g_world) return false;
  const auto& slot = g_world->blocks[c->pe()][c->core()];
  if (!slot) return false;
  const SpinState& sp = slot->spin;
  return sp.seen_addr == addr && sp.seen_bytes == bytes && std::memcmp(sp.seen, addr, bytes) == 0;
}

void note_store(const void* addr, uint64_t bytes, const char* what, CallSite site) {
  if (!g_world) return;
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
  system().hooks().emit(&AscendObserver::on_gm_store, r);
}

void before_core_store(const void* addr, uint64_t bytes) {
  AivCore* c = AivCore::current();
  if (c) c->before_store(static_cast<const uint8_t*>(addr), bytes);
}

bool deadlock_detected() { return g_world && g_world->deadlock; }
const std::vector<WaitRecord>& gave_up() { return g_world->gave_up; }

}  // namespace symsim::shim
