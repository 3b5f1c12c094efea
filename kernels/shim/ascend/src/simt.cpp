// SIMT threads as fibers on the calling AIV core's coroutine. A VF runs to completion inside
// one shim call: its threads never wait on SystemC, so the core's time advances once, at the
// end, by the VF's cost: a launch overhead plus the busiest thread's SIMT operations (barriers
// line the threads up), each one scalar operation.
#include "symsim/simt.h"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <vector>

#include "models/ascend/aiv_core.h"
#include "models/core/sanitizers.h"
#include "models/memory/address_map.h"
#include "kernels/shim/ascend/src/world.h"
#include "kernels/shim/ascend/src/wqe_posts.h"

namespace symsim::shim::simt {

namespace {

namespace ctx = boost::context;

constexpr std::size_t kStackBytes = 128 * 1024;
constexpr double kLaunchOps = 20;  // assumed: VF dispatch to the SIMT unit, in scalar operations

struct Thread {
  ctx::fiber fiber;
  ctx::fiber* sink = nullptr;  // the scheduler, while this thread runs
  FiberAsan asan;              // its stack switches, for AddressSanitizer (nothing without it)
  Index3 idx;
  bool entered = false;  // it has run
  bool cancelled = false;  // the VF stopped before it ran
  bool done = false;
  bool at_barrier = false;
  uint64_t ops = 0;
};

struct Vf {
  std::vector<Thread> threads;
  Index3 dim;
  size_t current = 0;
  std::exception_ptr error;
};

Vf* g_vf = nullptr;  // the VF running now (VFs never interleave: they do not yield to SystemC)

ctx::pooled_fixedsize_stack& stacks() {
  static ctx::pooled_fixedsize_stack pool(kStackBytes);
  return pool;
}

// The pool, telling the thread's FiberAsan where its stack is.
struct ThreadStack {
  Thread* t;
  ctx::stack_context allocate() {
    ctx::stack_context sc = stacks().allocate();
    t->asan.set_stack(sc.sp, sc.size);
    return sc;
  }
  void deallocate(ctx::stack_context& sc) { stacks().deallocate(sc); }
};

// Back to the scheduler from the running thread.
void yield() {
  Thread& t = g_vf->threads[g_vf->current];
  FiberAsan::Yield to_caller(t.asan);
  *t.sink = std::move(*t.sink).resume();
}

// Runs the thread until it reaches a barrier or returns.
void resume(Thread& t) {
  FiberAsan::Resume to_fiber(t.asan);
  t.fiber = std::move(t.fiber).resume();
}

// Ends a thread that has not returned (after an error): one parked at a barrier is unwound
// (its destructors run); one that never ran returns at once, as Boost would otherwise unwind
// it inside its own entry code, a switch ASan cannot be told about.
void stop(Thread& t) {
  if (!t.fiber) return;
  if (!t.entered) {
    t.cancelled = true;
    resume(t);
    return;
  }
  FiberAsan::Resume to_fiber(t.asan);
  t.fiber = {};
}

}  // namespace

bool in_vf() { return g_vf != nullptr; }

const Index3& thread_idx() {
  static const Index3 scalar{};
  return g_vf ? g_vf->threads[g_vf->current].idx : scalar;
}

const Index3& block_dim() {
  static const Index3 scalar{1, 1, 1};
  return g_vf ? g_vf->dim : scalar;
}

void count_op() {
  if (g_vf) ++g_vf->threads[g_vf->current].ops;
  else core().scalar_ops(1);
}

void atomic_begin(const void* addr, uint64_t bytes) {
  count_op();
  const Region* r = system().addresses().find(addr, bytes);
  if (r && r->kind != RegionKind::kUnifiedBuffer) before_core_store(addr, bytes);  // no put reads a UB
}

void atomic_end(const void* addr, uint64_t bytes) { note_store(addr, bytes, "SIMT atomic"); }

void barrier() {
  if (!g_vf) trap("ThreadBarrier / __syncthreads called outside a SIMT VF (VF_CALL)");
  Thread& t = g_vf->threads[g_vf->current];
  ++t.ops;
  t.at_barrier = true;
  yield();
}

void reject_in_vf(const char* what) {
  if (g_vf) reject_in_vf_at(what, SYMSIM_CALLER());
}

void reject_in_vf_at(const char* what, CallSite site) {
  if (!g_vf)
    return;
  const Index3& i = g_vf->threads[g_vf->current].idx;
  trap(fmt::format("{}: {} called from a SIMT VF (thread {},{},{}): the vendor compiler rejects st_dev/ld_dev "
                   "in __simt_vf__ code; ring doorbells from scalar AIV code after VF_CALL returns",
                   where(site), what, i.x, i.y, i.z));
}

void run_vf(uint32_t x, uint32_t y, uint32_t z, std::function<void()> body) {
  AivCore& c = core();
  if (g_vf) trap("VF_CALL inside a SIMT VF");
  const uint64_t n = uint64_t{x} * y * z;
  if (n == 0 || n > kMaxThreads)
    trap(fmt::format("VF_CALL with Dim3{{{},{},{}}}: {} threads, supported 1..{}", x, y, z, n, kMaxThreads));
  Vf vf;
  vf.dim = {x, y, z};
  vf.threads.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    Thread& t = vf.threads[i];
    t.idx = {static_cast<uint32_t>(i % x), static_cast<uint32_t>(i / x % y), static_cast<uint32_t>(i / (uint64_t{x} * y))};
    t.fiber = ctx::fiber(std::allocator_arg, ThreadStack{&t}, [&vf, &t, &body](ctx::fiber&& sink) {
      FiberAsan::Body on_stack(t.asan);
      t.entered = true;
      t.sink = &sink;
      if (!t.cancelled) {
        try {
          body();
        } catch (const std::exception&) {
          if (!vf.error) vf.error = std::current_exception();
        }
      }
      t.done = true;
      return std::move(sink);
    });
  }
  g_vf = &vf;
  // Round-robin: each thread runs until it reaches a barrier or returns; when every live
  // thread waits at the barrier, all are released together.
  for (;;) {
    for (size_t i = 0; i < vf.threads.size() && !vf.error; ++i) {
      Thread& t = vf.threads[i];
      if (t.done || t.at_barrier) continue;
      vf.current = i;
      resume(t);
    }
    if (vf.error) break;
    const auto live = std::count_if(vf.threads.begin(), vf.threads.end(), [](const Thread& t) { return !t.done; });
    if (live == 0) break;
    if (live != static_cast<long>(vf.threads.size())) {
      vf.error = std::make_exception_ptr(KernelTrap(fmt::format(
          "VF_CALL: a barrier was reached by {} of {} SIMT threads; the others returned without it", live,
          vf.threads.size())));
      break;
    }
    uint64_t slowest = 0;
    for (const Thread& t : vf.threads) slowest = std::max(slowest, t.ops);
    for (Thread& t : vf.threads) {
      t.ops = slowest;  // the barrier lines the threads up
      t.at_barrier = false;
    }
  }
  uint64_t slowest = 0;
  for (const Thread& t : vf.threads) slowest = std::max(slowest, t.ops);
  for (Thread& t : vf.threads) stop(t);  // threads still parked at a barrier (after an error)
  vf.threads.clear();
  g_vf = nullptr;
  if (vf.error) std::rethrow_exception(vf.error);
  const Ps start_ps = c.local_ps();
  c.scalar_ops(kLaunchOps + static_cast<double>(slowest));
  system().hooks().emit<&Observer::on_core_span>(c.pe(), c.core(), "simt vf", start_ps, c.local_ps());
  note_vf_end(c);
}

}  // namespace symsim::shim::simt
