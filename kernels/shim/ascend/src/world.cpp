// The shim's one World (one simulation per process): created by start(), read by every shim
// call through world(), host() and core(); the host coroutines it spawns; what the runner reads
// once the simulation ends.
#include "kernels/shim/ascend/src/world.h"
#include "models/core/sim_now.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include <fmt/format.h>

#include "models/ascend/aiv_core.h"
#include "models/core/sanitizers.h"

namespace symsim::shim {

namespace {
std::unique_ptr<World> g_world;
}  // namespace

World& world() { return *g_world; }
Ps now_ps() { return sim_now_ps(); }

HostState& host() {
  ExecContext* ctx = current_exec();
  if (!ctx || !ctx->host) throw std::logic_error("a host API was called outside a host program");
  return *static_cast<HostState*>(ctx->host);
}

void detail::no_core() { throw std::logic_error("a device API was called outside a kernel"); }

BlockContext& block() {
  AivCore& c = core();
  return world().blocks[c.pe()][c.core()]->ctx;
}

int my_pe() {
  detail::count_call();
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

void start(AscendSystem& sys, std::function<void(int pe)> host_main) {
  g_world = std::make_unique<World>();
  World& w = *g_world;
  w.sys = &sys;
  detail::g_system = &sys;
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

void stop() {
  g_world.reset();
  detail::g_system = nullptr;
}

bool all_hosts_finished() {
  for (const HostState& h : g_world->hosts)
    if (!h.finished) return false;
  return true;
}

const std::vector<TrapRecord>& traps() { return g_world->traps; }
Ps last_activity_ps() { return g_world->last_activity_ps; }

}  // namespace symsim::shim
