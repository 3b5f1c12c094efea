#include "models/nvidia/gpu_scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "models/core/sanitizers.h"
#include "models/nvidia/code_cost.h"
#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu.h"
#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

// The static __shared__ variables of every kernel, gathered by the linker into one section
// (the CUDA shim's __shared__ puts them there). Each CTA keeps its own image of the section;
// the scheduler swaps images when it switches to a thread of another CTA.
extern "C" {
extern uint8_t __start_symsim_shared[] __attribute__((weak));
extern uint8_t __stop_symsim_shared[] __attribute__((weak));
}

namespace symsim::nv {

namespace {
Cta* g_image_owner = nullptr;
uint64_t g_next_thread_id = 0;

// Inside a fiber, the time its scheduler resumed it at (the same as SystemC's).
Ps now_ps() { return g_running.thread ? g_running.now_ps : static_cast<Ps>(sc_core::sc_time_stamp().value()); }
void prefetch_thread(const CudaThread& t) {
  const auto* p = reinterpret_cast<const char*>(&t);
  for (size_t i = 0; i < CudaThread::kHotBytes; i += 64) __builtin_prefetch(p + i);
}
size_t static_smem_bytes() {
  return (__start_symsim_shared && __stop_symsim_shared) ? static_cast<size_t>(__stop_symsim_shared - __start_symsim_shared) : 0;
}
}  // namespace

uint8_t* shared_storage(Cta& c, void* addr) {
  auto* p = static_cast<uint8_t*>(addr);
  const size_t n = static_smem_bytes();
  if (n == 0 || p < __start_symsim_shared || p >= __stop_symsim_shared || g_image_owner == &c) return p;
  return c.static_image.data() + (p - __start_symsim_shared);
}

GpuScheduler::GpuScheduler(NvidiaSystem& sys, int gpu) : m_sys(sys), m_gpu(gpu) {}

void GpuScheduler::spawn() {
  constexpr size_t kStackBytes = 256 * 1024;
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kStackBytes);
  sc_core::sc_spawn(
      [this]() {
        const CoroutineStackRoot live(kStackBytes);
        run();
      },
      fmt::format("gpu{}_sms", m_gpu).c_str(), &opts);
}

void GpuScheduler::enqueue(std::shared_ptr<Launch> l) {
  m_queue.push_back(std::move(l));
  m_work.notify(sc_core::SC_ZERO_TIME);
}

void GpuScheduler::swap_static_smem(Cta* to) {
  const size_t n = static_smem_bytes();
  if (n == 0 || g_image_owner == to) return;
  if (g_image_owner) std::memcpy(g_image_owner->static_image.data(), __start_symsim_shared, n);
  std::memcpy(__start_symsim_shared, to->static_image.data(), n);
  g_image_owner = to;
}

void GpuScheduler::run() {
  for (;;) {
    if (!m_current) {
      if (m_queue.empty()) {
        sc_core::wait(m_work);
        continue;
      }
      start_launch();
      continue;
    }
    Launch& l = *m_current;
    if (m_aborting) {
      for (auto& cta : l.ctas) {
        if (!cta) continue;
        for (auto& t : cta->threads) {
          if (t->finished) continue;
          if (t->blocked || t->spin >= kSpinIdle) m_sys.thread_idle(false);
          m_sys.thread_live(-1);
          t->finished = true;
          g_running = {t.get(), now_ps()};
          t->fiber.destroy();
          g_running.thread = nullptr;
        }
        if (g_image_owner == cta.get()) g_image_owner = nullptr;
      }
      m_ready.clear();
      end_launch();
      continue;
    }
    if (l.live_ctas == 0 && l.next_cta >= l.grid.count()) {
      end_launch();
      continue;
    }
    if (m_ready.empty()) {
      abort("deadlock");
      continue;
    }
    const Ps first = m_ready.top_ps();
    const Ps now = now_ps();
    if (first > now) {
      sc_core::wait(sc_core::sc_time::from_value(first - now), m_work);
      continue;
    }
    CudaThread& t = *m_ready.pop();
    // The next thread's state and stack top are cold (a GPU has up to 2048 threads, each on
    // its own stack): fetch them while this one runs.
    if (const CudaThread* next = m_ready.peek()) {
      prefetch_thread(*next);
      Fiber::prefetch_stack(m_ready.peek_sp());
    }
    t.local_ps = std::max(t.local_ps, now);
    swap_static_smem(t.cta);
    g_running = {&t, now};
    ++m_resumes;
    drop_code_blocks();
    t.fiber.resume();
    g_running.thread = nullptr;
    // Not blocked nor ended: it queued itself (sync_to) just before suspending, at a stack
    // pointer known only now.
    if (!t.blocked && !t.fiber.finished()) m_ready.set_last_sp(t.fiber.saved_sp());
    if (t.fiber.finished() && !t.finished) {
      if (g_code_insns != 0) charge_code_blocks(t);  // the code after its last shim call
      finish_thread(t);
    }
  }
}

void GpuScheduler::start_launch() {
  m_current = m_queue.front();
  m_queue.pop_front();
  m_aborting = false;
  Launch& l = *m_current;
  m_quantum_ps = ns_to_ps(m_sys.params().sim_quantum_ns);
  // Queued behind a kernel that has just ended: the GPU starts it gpu.launch_gap_us later
  // (on an idle stream, gpu.launch_start_us after it arrived).
  if (l.queued_ps < m_last_end_ps) l.start_ps = m_last_end_ps + ns_to_ps(m_sys.params().launch_gap_us * 1000.0);
  l.ctas.resize(l.grid.count());
  m_free_sms.clear();
  const int sms = static_cast<int>(m_sys.params().sm_count);
  for (int sm = sms - 1; sm >= 0; --sm) m_free_sms.push_back(sm);
  while (l.next_cta < l.grid.count() && !m_free_sms.empty()) {
    const int sm = m_free_sms.back();
    m_free_sms.pop_back();
    start_cta(l, l.next_cta++, sm);
  }
}

void GpuScheduler::start_cta(Launch& l, uint32_t index, int sm) {
  auto cta = std::make_unique<Cta>(m_sys.gpu(m_gpu).sm(sm).ports_for_new_cta());
  Cta& c = *cta;
  c.launch = &l;
  c.gpu = m_gpu;
  c.index = index;
  c.idx = {index % l.grid.x, (index / l.grid.x) % l.grid.y, index / (l.grid.x * l.grid.y)};
  c.sm = sm;
  c.scheduler = this;
  c.smem.assign(l.dyn_smem_bytes, 0);
  c.static_image.assign(static_smem_bytes(), 0);
  const uint32_t n = l.block.count();
  c.warps.resize((n + 31) / 32);
  c.live = n;
  c.op_ps = issue_ps(n, m_sys.params().sm_op_ns, m_sys.params().sm_issue_slot_ns);
  const Ps start = std::max(now_ps(), l.start_ps);
  for (uint32_t i = 0; i < n; ++i) {
    auto th = std::make_unique<CudaThread>();
    CudaThread& t = *th;
    t.cta = &c;
    t.tid = i;
    t.warp = i / 32;
    t.lane = i % 32;
    t.idx = {i % l.block.x, (i / l.block.x) % l.block.y, i / (l.block.x * l.block.y)};
    t.local_ps = start;
    t.order.place = {static_cast<int>(g_next_thread_id++ & 0x7fffffff), static_cast<int>(index), m_gpu};
    t.order.reader = {WriterKind::Thread, m_gpu, static_cast<int>(index), static_cast<int>(i), nullptr, 0};
    c.threads.push_back(std::move(th));
  }
  for (auto& th : c.threads) {
    CudaThread* t = th.get();
    t->fiber.start(m_sys.stacks(), [this, t]() { thread_main(*t); });
    m_sys.thread_live(+1);
    push(*t, start);
  }
  ++l.live_ctas;
  l.ctas[index] = std::move(cta);
}

void GpuScheduler::thread_main(CudaThread& t) {
  Launch& l = *t.cta->launch;
  try {
    l.entry();
  } catch (const DeviceTrap& e) {
    this->trap(t, e.what());
  } catch (const std::exception& e) {
    this->trap(t, fmt::format("internal error in a device call: {}", e.what()));
  }
}

void GpuScheduler::trap(CudaThread& t, const std::string& why) {
  Launch& l = *t.cta->launch;
  if (!l.failed) {
    l.failed = true;
    l.error = fmt::format("trap in CTA {} thread {} at {:.3f} us: {}", t.cta->index, t.tid, ps_to_us(t.local_ps), why);
  }
  m_aborting = true;
}

void GpuScheduler::finish_thread(CudaThread& t) {
  t.finished = true;
  if (t.spin >= kSpinIdle) m_sys.thread_idle(false);
  t.spin = 0;
  m_sys.thread_live(-1);
  Cta& c = *t.cta;
  Launch& l = *c.launch;
  // The kernel is complete once the thread's writes have landed, not when it exits: the host
  // reads them after the synchronize (a weak store just before the exit included).
  Ps landed = std::max(t.local_ps, m_sys.order().release_wait_ps(t.order, Scope::Sys));
  if (t.rmw_word != 0) landed = std::max(landed, t.rmw_back_ps);  // an atomic's result not waited for
  for (const Ps group_ps : t.bulk_groups) landed = std::max(landed, group_ps);
  if (t.bulk_open) landed = std::max(landed, t.bulk_open_ps);
  l.end_ps = std::max(l.end_ps, landed);
  --c.live;
  // A thread that exits counts as arrived at the CTA barrier the others wait at.
  auto bar = c.barriers.find(0);
  if (bar != c.barriers.end() && !bar->second.waiters.empty() && bar->second.arrived >= c.live) {
    Cta::Barrier b = std::move(bar->second);
    c.barriers.erase(bar);
    const Ps release = std::max(b.latest_ps, t.local_ps) + ns_to_ps(m_sys.params().sm_syncthreads_ns);
    if (m_sys.params().tma_engine_mva_segments != 0) c.ports.tma_mva.new_segment();  // as cta_barrier's release
    for (CudaThread* w : b.waiters) {
      OrderModel::barrier_leave(w->order, b.carry, release);
      wake(*w, release);
    }
  }
  if (c.live > 0) return;
  if (g_image_owner == &c) g_image_owner = nullptr;
  m_free_sms.push_back(c.sm);
  --l.live_ctas;
  const uint32_t index = c.index;
  l.ctas[index].reset();
  if (l.next_cta < l.grid.count() && !m_aborting) {
    const int sm = m_free_sms.back();
    m_free_sms.pop_back();
    start_cta(l, l.next_cta++, sm);
  }
}

void GpuScheduler::end_launch() {
  Launch& l = *m_current;
  // Threads run ahead of SystemC time: the host (and the next launch) may go on only once the
  // launch's last thread has exited and its writes have landed.
  if (!m_aborting && l.end_ps > now_ps()) sc_core::wait(sc_core::sc_time::from_value(l.end_ps - now_ps()));
  l.done = true;
  l.end_ps = std::max(l.end_ps, now_ps());
  m_last_end_ps = l.end_ps;
  l.ctas.clear();
  l.finished.notify(sc_core::SC_ZERO_TIME);
  m_current.reset();
  m_aborting = false;
}

void GpuScheduler::busy(CudaThread& t) {
  if (t.spin >= kSpinIdle) m_sys.thread_idle(false);
  t.spin = 0;
}

void GpuScheduler::poll(CudaThread& t, uintptr_t addr, uint64_t value, uint32_t bytes) {
  if (addr != t.last_poll_addr || value != t.last_poll_value) {
    busy(t);
    t.last_poll_addr = addr;
    t.last_poll_value = value;
    t.last_poll_bytes = std::min<uint32_t>(bytes, 8);
    return;
  }
  if (++t.spin == kSpinIdle) {
    m_sys.thread_idle(true);
  } else if (t.spin > kSpinIdle) {
    m_sys.idle_poll();
  }
}

bool GpuScheduler::idle_poller_sees_change() const {
  if (!m_current) return false;
  for (const auto& cta : m_current->ctas) {
    if (!cta) continue;
    for (const auto& t : cta->threads) {
      if (t->finished || t->blocked || t->spin < kSpinIdle || t->last_poll_bytes == 0) continue;
      const void* p = reinterpret_cast<const void*>(t->last_poll_addr);
      if (!m_sys.memory().in_hbm(p, t->last_poll_bytes)) continue;
      uint64_t now = 0;
      std::memcpy(&now, p, t->last_poll_bytes);
      if (now != t->last_poll_value) return true;
    }
  }
  return false;
}

void GpuScheduler::advance(CudaThread& t, Ps d) {
  t.local_ps += d;
  if (t.local_ps > now_ps() + m_quantum_ps) sync_to(t, t.local_ps);
}

void GpuScheduler::sync_to(CudaThread& t, Ps t_ps) {
  t.local_ps = std::max(t.local_ps, t_ps);
  if (t.local_ps <= now_ps()) return;
  m_ready.push(t.local_ps, &t);  // running: its stack pointer is set once it has suspended
  t.fiber.yield();
}

void GpuScheduler::block(CudaThread& t) {
  busy(t);
  t.blocked = true;
  m_sys.thread_idle(true);
  t.fiber.yield();
}

void GpuScheduler::wake(CudaThread& t, Ps t_ps) {
  if (!t.blocked) return;
  t.blocked = false;
  t.wait = {};
  m_sys.thread_idle(false);
  t.local_ps = std::max(t.local_ps, t_ps);
  push(t, t.local_ps);
}

void GpuScheduler::abort(const std::string& why) {
  if (!m_current || m_aborting) return;
  Launch& l = *m_current;
  if (!l.failed) {
    l.failed = true;
    l.error = why;
  }
  m_sys.record_hang(m_gpu, why, describe_waits(12));
  m_aborting = true;
  m_work.notify(sc_core::SC_ZERO_TIME);
}

std::vector<std::string> GpuScheduler::describe_waits(size_t max_lines) const {
  std::vector<std::string> out;
  if (!m_current) return out;
  struct Group {
    size_t count = 0;
    const CudaThread* first = nullptr;
  };
  std::map<std::tuple<std::string, std::string, int>, Group> groups;  // ordered: deterministic
  for (const auto& cta : m_current->ctas) {
    if (!cta) continue;
    for (const auto& t : cta->threads) {
      if (t->finished) continue;
      const std::string what = t->wait.what ? t->wait.what : "running";
      Group& g = groups[{what, t->wait.file ? t->wait.file : "", t->wait.line}];
      if (g.count++ == 0) g.first = t.get();
    }
  }
  for (const auto& [key, g] : groups) {
    if (out.size() == max_lines) {
      out.push_back(fmt::format("... and {} more wait sites", groups.size() - max_lines));
      break;
    }
    const CudaThread& t = *g.first;
    std::string where = std::get<1>(key).empty() ? "" : " at " + site_text(std::get<1>(key).c_str(), std::get<2>(key));
    std::string addr = t.wait.addr ? fmt::format(" (address {}, last value {})", addr_text(t.wait.addr), t.wait.value) : "";
    out.push_back(fmt::format("GPU {} kernel {}: {} thread(s), first CTA {} thread {}, {}{}{}", m_gpu,
                              m_current->name, g.count, t.cta->index, t.tid, std::get<0>(key), where, addr));
  }
  return out;
}

}  // namespace symsim::nv
