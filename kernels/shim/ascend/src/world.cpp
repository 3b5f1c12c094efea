#include "world.h"

#include <cstdarg>
#include <cstdio>

#include <fmt/format.h>

#include "models/ascend/aiv_core.h"

namespace symsim::shim {

namespace {
std::unique_ptr<World> g_world;
}

World& world() { return *g_world; }
Ps now_ps() { return static_cast<Ps>(sc_core::sc_time_stamp().value()); }

AscendSystem& system() { return *g_world->sys; }
bool has_system() { return g_world && g_world->sys; }

HostState& host() {
  ExecContext* ctx = current_exec();
  if (!ctx || !ctx->host) throw std::logic_error("a host API was called outside a host program");
  return *static_cast<HostState*>(ctx->host);
}

AivCore& core() {
  AivCore* c = AivCore::current();
  if (!c) throw std::logic_error("a device API was called outside a kernel");
  return *c;
}

BlockContext& block() {
  AivCore& c = core();
  return world().blocks[c.pe()][c.core()]->ctx;
}

int my_pe() { return current_exec() ? current_exec()->pe : -1; }
int n_pes() { return system().n_pes(); }

void trap(const std::string& why) { throw KernelTrap(why); }

void kernel_printf(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
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

void vector_barrier_all(CallSite site) {
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
    w.vec_release_ps = w.vec_latest_ps + rounds * ns_to_ps(w.sys->params().aiv_barrier_hop_ns);
    w.vec_arrived = 0;
    w.vec_latest_ps = 0;
    ++w.vec_generation;
    w.vec_event.notify(sc_core::sc_time::from_value(w.vec_release_ps - now_ps()));
    w.sys->hooks().emit(&Observer::on_device_barrier, w.vec_release_ps);
    c.wait_until(w.vec_release_ps);
  } else {
    b.waiting_on = fmt::format("aclshmemx_barrier_all_vec at {}:{} ({} of {} arrived)", site.file, site.line,
                               w.vec_arrived, expected);
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
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(256 * 1024);
    sc_core::sc_spawn(
        [&h, host_main]() {
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
  return fmt::format("{} {} of PE {} QP {} (at {:#x}) in {}:{}", what, index, pe, qp, reinterpret_cast<uintptr_t>(addr),
                     site.file, site.line);
}

WaitRecord wait_record(int pe, int core, const BlockState& b) {
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
    r.expected = b.waiting.expected;
    r.qp_slot = b.waiting.slot;
    r.qp = static_cast<int>(b.waiting.qp);
    r.cqe_index = b.waiting.index;
    r.file = b.waiting.site.file;
    r.line = b.waiting.site.line;
    r.what = fmt::format("CQE {} of QP {} toward PE {}", b.waiting.index, b.waiting.qp, b.waiting.pe);
  } else if (!b.waiting_on.empty()) {
    r.what = b.waiting_on;
    r.in_barrier = true;
  } else if (sp.polls >= kSpinPolls) {
    r.polling = true;
    r.addr = sp.addr;
    r.bytes = sp.bytes;
    r.file = sp.site.file;
    r.line = sp.site.line;
    r.what = "GM (dcci / ld_dev / a GM read in a loop, no write in between)";
  }
  r.polls = sp.polls;
  r.since_ps = sp.since_ps;
  return r;
}

std::vector<WaitRecord> waiting() {
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
      if (b && !b->finished) out.push_back(wait_record(static_cast<int>(pe), static_cast<int>(c), *b));
    }
  return out;
}

namespace {

// True when no coroutine can make progress: every unfinished block polls with no effect or
// waits in a barrier, every unfinished host waits on an event, no engine has a doorbell
// queued and nothing is in flight to land in memory.
bool block_busy(const std::unique_ptr<BlockState>& b) {
  return b && !b->finished && b->waiting_on.empty() && b->spin.polls < kSpinPolls;
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

void note_poll(const void* addr, uint64_t bytes, CallSite site) {
  AivCore& c = core();
  BlockState& b = *g_world->blocks[c.pe()][c.core()];
  SpinState& sp = b.spin;
  if (sp.polls == 0) sp.since_ps = c.local_ps();
  sp.addr = addr;
  sp.bytes = bytes;
  if (site.file) sp.site = site;
  ++sp.polls;
  // Checking costs a scan of every block: do it now and then while the loop goes on.
  if (sp.polls >= kSpinPolls && sp.polls % kSpinPolls == 0 && !g_world->deadlock && quiescent()) {
    g_world->deadlock = true;
    sc_core::sc_stop();  // the runner reports who waits on what
  }
}

void note_effect() {
  AivCore* c = AivCore::current();
  if (!c || !g_world) return;
  auto& slot = g_world->blocks[c->pe()][c->core()];
  if (slot) slot->spin.polls = 0;
}

bool deadlock_detected() { return g_world && g_world->deadlock; }
const std::vector<WaitRecord>& gave_up() { return g_world->gave_up; }

}  // namespace symsim::shim
