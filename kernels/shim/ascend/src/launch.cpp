// Kernel launch: each block is a SystemC thread on its own AIV core, started when the stream
// reaches the kernel; the stream's tail time is when its last block ends.
#include <dlfcn.h>

#include <fmt/format.h>

#include "models/ascend/aiv_core.h"
#include "models/core/sanitizers.h"
#include "symsim/launch.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

struct Launch {
  std::string name;
  uint32_t block_dim;
  Stream* stream;
  std::function<void()> body;
  int remaining;
  Ps start_ps;
};

namespace {

constexpr size_t kStackBytes = 512 * 1024;

void run_block(std::shared_ptr<Launch> l, uint32_t idx) {
  World& w = world();
  const int pe = l->stream->pe;
  AivCore& c = w.sys->core(pe, static_cast<int>(idx));
  auto& slot = w.blocks[pe][idx];
  slot = std::make_unique<BlockState>();
  BlockState& b = *slot;
  b.ctx.kernel = l->name.c_str();
  b.ctx.block_idx = idx;
  b.ctx.block_num = l->block_dim;
  b.ctx.ub = w.sys->unified_buffer(pe, static_cast<int>(idx));
  b.ctx.ub_bytes = static_cast<uint64_t>(w.sys->params().aiv_ub_bytes);
  c.make_current();
  c.wait_until(l->start_ps);
  Hooks& hooks = w.sys->hooks();
  const Ps started_ps = c.local_ps();
  hooks.emit<&Observer::on_block_start>(pe, static_cast<int>(idx), b.ctx.kernel, started_ps);
  try {
    l->body();
    c.pipe_barrier(AivPipe::kAll);  // a kernel ends when its pipes drain
  } catch (const KernelTrap& t) {
    w.traps.push_back({pe, static_cast<int>(idx), l->name, t.what(), c.local_ps()});
    l->stream->trapped = true;
    hooks.emit<&Observer::on_kernel_trap>(pe, static_cast<int>(idx), b.ctx.kernel, std::string(t.what()), c.local_ps());
  }
  c.sync();
  hooks.emit<&Observer::on_block_end>(pe, static_cast<int>(idx), b.ctx.kernel, c.local_ps());
  hooks.emit<&Observer::on_core_span>(pe, static_cast<int>(idx), b.ctx.kernel, started_ps, c.local_ps());
  b.finished = true;
  w.last_activity_ps = std::max(w.last_activity_ps, c.local_ps());
  Stream& s = *l->stream;
  s.tail_ps = std::max(s.tail_ps, c.local_ps());
  if (--l->remaining == 0) {
    --s.running;
    s.idle.notify(sc_core::SC_ZERO_TIME);
  }
}

// A core's worker: runs each launch handed to it, then waits for the next.
void work(BlockWorker& wk) {
  const CoroutineStackRoot live(kStackBytes);
  for (;;) {
    while (!wk.launch) sc_core::wait(wk.go);
    std::shared_ptr<Launch> l = std::move(wk.launch);
    run_block(std::move(l), wk.idx);
    wk.busy = false;
  }
}

// Starts block `i` of `l` on its core's worker (made on the core's first launch). A core whose
// worker still runs a block of another stream's kernel gets a thread of its own, as before.
void start_block(const std::shared_ptr<Launch>& l, uint32_t i, int pe) {
  World& w = world();
  auto& row = w.workers[pe];
  if (row.size() <= i) row.resize(i + 1);
  auto& slot = row[i];
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kStackBytes);
  if (slot && slot->busy) {
    sc_core::sc_spawn(
        [l, i]() {
          const CoroutineStackRoot live(kStackBytes);
          run_block(l, i);
        },
        fmt::format("pe{}_{}_b{}", pe, l->name, i).c_str(), &opts);
    return;
  }
  const bool fresh = !slot;
  if (fresh) {
    slot = std::make_unique<BlockWorker>();
    slot->idx = i;
  }
  BlockWorker& wk = *slot;
  wk.launch = l;
  wk.busy = true;
  if (fresh)  // runs at once, where the spawned block used to
    sc_core::sc_spawn([&wk]() { work(wk); }, fmt::format("pe{}_block{}", pe, i).c_str(), &opts);
  else
    wk.go.notify();  // immediate: runnable now, behind what is already, as a new thread would be
}

}  // namespace

const char* kernel_symbol_name(const void* entry) {
  Dl_info info{};
  return dladdr(entry, &info) && info.dli_sname ? info.dli_sname : "kernel";
}

void launch_kernel(const char* name, uint32_t block_dim, void* stream, std::function<void()> body) {
  World& w = world();
  HostState& h = host();
  if (!h.shmem_ready) throw std::logic_error(fmt::format("kernel {} launched on PE {} before aclshmemx_init_attr", name, h.pe));
  const auto cores = static_cast<uint32_t>(w.sys->params().aiv_cores);
  if (block_dim == 0 || block_dim > cores)
    throw std::invalid_argument(fmt::format("kernel {}: block_dim {} is outside 1..{} (AIV cores per PE)", name, block_dim, cores));
  auto* s = static_cast<Stream*>(stream);
  if (!s) s = h.streams.empty() ? nullptr : h.streams.front().get();
  if (!s) throw std::invalid_argument(fmt::format("kernel {} launched on a null stream before any aclrtCreateStream", name));
  auto l = std::make_shared<Launch>();
  l->name = name;
  l->block_dim = block_dim;
  l->stream = s;
  l->body = std::move(body);
  l->remaining = static_cast<int>(block_dim);
  // Kernels on one stream run in order; this one starts after the launch overhead.
  l->start_ps = std::max(now_ps(), s->tail_ps) + ns_to_ps(w.sys->params().host_launch_us * 1000.0);
  if (s->running > 0) {
    // Wait for the stream's previous kernel so blocks on the same cores do not overlap.
    h.waiting_on = fmt::format("stream before launching {}", name);
    while (s->running > 0) sc_core::wait(s->idle);
    h.waiting_on.clear();
    current_exec() = &h.ctx;
    l->start_ps = std::max(l->start_ps, s->tail_ps);
  }
  ++s->running;
  w.launch_blocks[h.pe] = block_dim;
  w.blocks[h.pe].resize(std::max<size_t>(w.blocks[h.pe].size(), block_dim));
  if (w.workers.size() < w.blocks.size()) w.workers.resize(w.blocks.size());
  for (uint32_t i = 0; i < block_dim; ++i) start_block(l, i, h.pe);
}

}  // namespace symsim::shim
