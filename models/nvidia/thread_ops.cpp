// Loads, stores, atomics and fences of a CUDA thread (see thread_ops.h and mem_order.h).
#include "models/nvidia/thread_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "models/nvidia/code_cost.h"
#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/gpu.h"
#include "models/nvidia/nvidia_system.h"

extern "C" {
extern uint8_t __start_symsim_shared[] __attribute__((weak));
extern uint8_t __stop_symsim_shared[] __attribute__((weak));
}

namespace symsim::nv {

namespace {

// Inside a fiber, the time its scheduler resumed it at (the same as SystemC's).
Ps now_ps() { return g_running.thread ? g_running.now_ps : static_cast<Ps>(sc_core::sc_time_stamp().value()); }
Ps op_ps() { return this_thread().cta->op_ps; }

WriterRef writer_of(const CudaThread& t, Site site, WriterKind kind = WriterKind::Thread) {
  return {kind, t.cta->gpu, static_cast<int>(t.cta->index), static_cast<int>(t.tid), site.file, site.line};
}

// owner_of's traps, out of line: formatting their messages in place made the frames of the
// device calls that use it larger, and the fiber-stack lines a call's frame spans are cold at
// each resumption (docs/performance.md, session 24).
[[noreturn, gnu::cold, gnu::noinline]] void trap_outside_hbm(const void* p, uint64_t bytes, const char* what) {
  throw DeviceTrap(fmt::format("illegal address: {} of {} B at {} is outside shared memory and every GPU's HBM", what,
                               bytes, addr_text(p)));
}
[[noreturn, gnu::cold, gnu::noinline]] void trap_unreachable(const void* p, int owner, int gpu, const char* what) {
  throw DeviceTrap(fmt::format("illegal address: {} at {} is in GPU {}'s memory, which GPU {} cannot reach over NVLink",
                               what, addr_text(p), owner, gpu));
}

// The GPU owning [p, p+bytes), checked reachable from the thread's GPU; traps otherwise.
int owner_of(const CudaThread& t, const void* p, uint64_t bytes, const char* what) {
  NvidiaSystem& sys = this_system();
  if (!sys.memory().in_hbm(p, bytes)) trap_outside_hbm(p, bytes, what);
  const int owner = sys.memory().gpu_of(p);
  if (!sys.reachable(t.cta->gpu, owner)) trap_unreachable(p, owner, t.cta->gpu, what);
  return owner;
}

}  // namespace

void prune_landed(CudaThread& t) {
  const Ps now = now_ps();
  if (t.order.own.size() > 4) t.order.own.prune(now);
  if (t.order.inherited.size() > 4) t.order.inherited.prune(now);
  if (t.order.bulk.size() > 4) t.order.bulk.prune(now);
}

namespace {

void prune(CudaThread& t) { prune_landed(t); }

// The release half of a release operation: stall until in-scope writes have landed. A release
// store or atomic with none of the thread's writes in flight (its MEMBAR before the access) costs
// nothing more unless mem.idle_release_pays_fence (rows shim.grid_sync.{probe,relaxed}.c1_ns,
// shim.signal_wait.{probe,rel_gpu,relaxed}.pe1_ns: the same with and without the MEMBAR);
// a fence instruction pays its figure always (rows fence.*.ns, back to back).
void release_stall(CudaThread& t, Scope scope, bool fence_instruction = false) {
  NvidiaSystem& sys = this_system();
  prune_landed(t);
  const auto& p = sys.params();
  const Ps drained = sys.order().release_wait_ps(t.order, scope);
  // 2: only a system-scope release pays idle (rows flag.release_acquire_sys.one_way_ns 808.0 / 754.4
  // against the relaxed 252.1 / 241.9; the release's share: docs/hw-accuracy.md, thirty-third pass (s27-flag)).
  const bool idle_free = p.idle_release_pays_fence == 0 || (p.idle_release_pays_fence == 2 && scope != Scope::Sys);
  if (!fence_instruction && idle_free &&
      std::max(drained, sys.order().release_wait_ps(t.order, Scope::Gpu)) <= t.local_ps) {
    sys.order().released(t.order, scope);
    // An idle release.gpu's MEMBAR.ALL.GPU still waits (mem.idle_release_gpu_ns; on the H200 repetition by
    // repetition 202-222 / 282-293 ns over the relaxed twin, against a back-to-back fence's 136: rows
    // shim.grid_sync.probe.c1_ns - .relaxed.c1_ns, shim.signal_wait.rel_gpu.pe1_ns - .relaxed.pe1_ns at their
    // median repetitions, docs/hw-accuracy.md, thirty-ninth pass (s33-sync)).
    if (scope == Scope::Gpu && p.idle_release_pays_fence == 2) t.local_ps += ns_to_ps(p.idle_release_gpu_ns);
    return;
  }
  if (scope == Scope::Sys && p.fence_sys_hides_local != 0) {
    // A sys fence costs the same after a local store as with nothing pending (rows
    // fence.sc_sys.after_store_ns, fence.sc_sys.ns): local writes drain under it, as for a GPU
    // fence; writes still crossing NVLink are waited for first.
    const Ps local = sys.order().release_wait_ps(t.order, Scope::Gpu);
    Ps done = std::max(t.local_ps + ns_to_ps(p.fence_sys_ns), local + ns_to_ps(p.fence_gpu_ns));
    if (drained > local) done = std::max(done, drained + ns_to_ps(p.fence_sys_ns));
    t.local_ps = done;
    sys.order().released(t.order, scope);
    return;
  }
  t.local_ps = std::max(t.local_ps, drained);
  sys.order().released(t.order, scope);
  if (scope == Scope::Sys) t.local_ps += ns_to_ps(p.fence_sys_ns);
  if (scope == Scope::Gpu) t.local_ps += ns_to_ps(p.fence_gpu_ns);
}

uint64_t read_u(const uint8_t* p, uint32_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}

template <typename T>
T as(uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
template <typename T>
uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

uint64_t apply_atomic(AtomicOp op, AtomicType type, uint64_t old, uint64_t a, uint64_t compare) {
  auto integer = [&](auto o, auto x, auto c) -> decltype(o) {
    using T = decltype(o);
    switch (op) {
      case AtomicOp::Add: return static_cast<T>(o + x);
      case AtomicOp::Sub: return static_cast<T>(o - x);
      case AtomicOp::Exch: return x;
      case AtomicOp::Cas: return o == c ? x : o;
      case AtomicOp::Max: return o > x ? o : x;
      case AtomicOp::Min: return o < x ? o : x;
      case AtomicOp::And: return static_cast<T>(o & x);
      case AtomicOp::Or: return static_cast<T>(o | x);
      case AtomicOp::Xor: return static_cast<T>(o ^ x);
      case AtomicOp::Inc: return static_cast<T>(o >= x ? 0 : o + 1);
      case AtomicOp::Dec: return static_cast<T>((o == 0 || o > x) ? x : o - 1);
    }
    return o;
  };
  switch (type) {
    case AtomicType::U32: return static_cast<uint32_t>(integer(static_cast<uint32_t>(old), static_cast<uint32_t>(a), static_cast<uint32_t>(compare)));
    case AtomicType::S32: return static_cast<uint32_t>(integer(static_cast<int32_t>(old), static_cast<int32_t>(a), static_cast<int32_t>(compare)));
    case AtomicType::U64: return integer(old, a, compare);
    case AtomicType::S64: return static_cast<uint64_t>(integer(static_cast<int64_t>(old), static_cast<int64_t>(a), static_cast<int64_t>(compare)));
    case AtomicType::F32: {
      const float o = as<float>(old), x = as<float>(a);
      if (op == AtomicOp::Add) return bits_of(o + x);
      if (op == AtomicOp::Exch) return bits_of(x);
      return old;
    }
    case AtomicType::F64: {
      const double o = as<double>(old), x = as<double>(a);
      if (op == AtomicOp::Add) return bits_of(o + x);
      if (op == AtomicOp::Exch) return bits_of(x);
      return old;
    }
  }
  return old;
}

uint32_t type_bytes(AtomicType t) {
  return (t == AtomicType::U32 || t == AtomicType::S32 || t == AtomicType::F32) ? 4 : 8;
}

}  // namespace

void throw_outside_kernel() { throw std::logic_error("a device function was called outside a kernel"); }

Ps issue_ps(uint32_t threads_per_cta, double latency_ns, double slot_ns) {
  const double warps = static_cast<double>((threads_per_cta + 31) / 32);
  return ns_to_ps(std::max(latency_ns, warps * slot_ns));
}
Ps issue_ps(const CudaThread& t, double latency_ns, double slot_ns) {
  return issue_ps(t.cta->launch->block.count(), latency_ns, slot_ns);
}

void work(double ops) {
  CudaThread& t = this_thread();
  use_loads(t);
  this_scheduler().advance(t, static_cast<Ps>(ops * static_cast<double>(op_ps())));
}

bool in_shared(const void* p, uint64_t bytes) {
  const CudaThread* t = current_thread();
  if (!t) return false;
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto s = reinterpret_cast<uintptr_t>(t->cta->smem.data());
  if (a >= s && a + bytes <= s + t->cta->smem.size() && !t->cta->smem.empty()) return true;
  const auto v = reinterpret_cast<uintptr_t>(t->cta->static_vars.get());
  if (v && a >= v && a + bytes <= v + t->cta->static_vars_bytes) return true;
  const auto b = reinterpret_cast<uintptr_t>(__start_symsim_shared);
  const auto e = reinterpret_cast<uintptr_t>(__stop_symsim_shared);
  return b && a >= b && a + bytes <= e;
}

namespace {

// When a weak load's data is back at the SM: an L2 round trip, plus HBM on a miss (the line
// comes in), or over NVLink from a peer (whose L2 serves it).
Ps weak_load_return_ps(NvidiaSystem& sys, int gpu, int owner, const void* addr, uint32_t bytes, Ps sample) {
  const auto& p = sys.params();
  const bool hit = sys.l2_access(addr, bytes);
  if (owner != gpu) return sys.read_return_ps(owner, gpu, bytes, sample + sys.one_way_ps(gpu, owner));
  const Ps l2 = ns_to_ps(p.l2_latency_ns);
  const auto a = reinterpret_cast<uintptr_t>(addr);
  L2Residency& cache = sys.l2(owner);
  // l2.hits_wait_for_fill: a warp's 16 B loads are one instruction on the GPU, whose lanes all
  // wait for the lines it missed; here each lane is a load of its own, and the lanes after the
  // first on a missing line would hit it at once. Words (routing, counters) are left as they
  // were: with the rule on them too 36 calibration rows leave 10%, 34 of them dispatch / pull
  // rows (docs/hw-accuracy.md, twenty-eighth pass).
  const bool fill_rule = p.l2_hits_wait_for_fill != 0 && bytes >= 16;
  if (hit) return std::max(sample + 2 * l2, fill_rule ? cache.fill_ready_ps(a) + l2 : 0);
  const Ps start = sys.hbm_port(owner).reserve(sample + l2, std::max<uint64_t>(bytes, L2Residency::kLineBytes));
  // Behind the write-back of a dirty line it pushed out (as a bulk load).
  const Ps back = std::max(sample + 2 * l2 + ns_to_ps(p.hbm_latency_ns),
                           start + transfer_ps(L2Residency::kLineBytes, p.hbm_gbytes_per_s) + l2) +
                  sys.dirty_victims_wait_ps(owner);
  if (fill_rule) cache.filling(a, back - l2);
  return back;
}

// Where a 16 B data load of the SM's own GPU lies against the first data load of its group (the
// loads the thread issued since it last used loaded data): the first, near (within
// sm.load_far_bytes of it) or far. A far one returns sm.load_far_ns later: combine's reduce
// (calib_probe mode 13, one warp, window in L2) pays ~32 ns more for a pair of loads from two source
// rows 7 KiB apart than for one whose rows are 512 B or 1 KiB apart, in its by-4 loop and its by-8
// block alike (H200, session 27's call C), while a single load's wait does not move with the row
// size. A near one issues at sm.load_near_issue_ns instead of sm.load_issue_ns (fitted from 8 B
// loads of random lines), so a group's later loads go out sooner: mode 23's groups of 4 loads
// 512 B apart in one row (rows fresh.plain_load.*.c1w1: 1.04-1.13 of the GPU at 8.5 ns, 1.02-1.08
// at 0; a pair's wait does not move, its second load's issue is paid after it is out).
// docs/hw-accuracy.md, thirty-fourth pass (s28-reduce).
enum class LoadPlace : uint8_t { First, Near, Far };
struct LoadPlacing {
  LoadPlace place = LoadPlace::First;  // by distance from the group's first (the near issue; the far wait without a hash)
  bool far_wait = false;               // returns sm.load_far_ns later
};
// With sm.load_far_partition_bits the far wait follows the L2 half of the two loads instead of
// their distance: the parity of those bits of the device offset (DeviceMemory::base), the GPU's
// address bits where large allocations are 2 MiB aligned (calls D1 / D2, H100: bits 12 ^ 13 fit
// 1-8 and 16-32 KiB pairs). docs/hw-accuracy.md, thirty-fourth pass (s28-part).
bool partition_of(uintptr_t a, uint64_t bits) {
  const DeviceMemory& m = this_system().memory();
  const int g = m.gpu_of(reinterpret_cast<const void*>(a));
  const uint64_t off = g < 0 ? a : a - reinterpret_cast<uintptr_t>(m.base(g));
  return __builtin_parityll(off & bits) != 0;
}
LoadPlacing place_in_group(CudaThread& t, uintptr_t a, const NvidiaParams& p) {
  const auto bits = static_cast<uint64_t>(p.sm_load_far_partition_bits);
  if (t.loads_count == 0 || t.load_group_addr == 0) {
    t.load_group_addr = a;
    if (bits) t.load_group_half = partition_of(a, bits);
    return {};
  }
  const uintptr_t d = a > t.load_group_addr ? a - t.load_group_addr : t.load_group_addr - a;
  const LoadPlace place = static_cast<double>(d) >= p.sm_load_far_bytes ? LoadPlace::Far : LoadPlace::Near;
  return {place, bits ? partition_of(a, bits) != t.load_group_half : place == LoadPlace::Far};
}

// The thread keeps at most sm.loads_in_flight_per_thread data loads out: one more waits for
// the oldest to return. The shim cannot see when loaded data is used: loads overlap each other
// only, and the thread's next operation of another kind waits for them (use_loads).
void track_load(CudaThread& t, GpuScheduler& s, Ps returns_ps) {
  const auto limit = static_cast<uint32_t>(this_system().params().sm_loads_in_flight);
  constexpr uint32_t kRing = CudaThread::kMaxLoadsInFlight;
  if (t.loads_count >= limit) {
    const Ps oldest = t.loads[t.loads_head];
    t.loads_head = (t.loads_head + 1) % kRing;
    --t.loads_count;
    if (oldest > t.local_ps) s.advance(t, oldest - t.local_ps);
  }
  t.loads[(t.loads_head + t.loads_count) % kRing] = returns_ps;
  ++t.loads_count;
}

// A GPU-scope acquire poll loop's second poll goes out mem.poll_phase_ns x (CTA index) / (CTAs) later:
// a deterministic stand-in for the GPU's pollers, whose phases spread over their poll period
// (rows shim.grid_sync.{probe,relaxed}.c{4,16}_ns: a CTA that is not the last pays about
// (c - 1) / c of a period more than one CTA). The model's pollers would otherwise poll in step.
// System-scope polls keep their step: no row measures their spread (at 225 ns on them the
// receive polls of ll_dispatch_ep16 shift so that test LowLatencyDispatch.CountsOnTheDataQp...
// reports a flag_before_data on a count read by a poll).
// With mem.poll_phase_once the delay is paid in a thread's first such loop only. A CTA's poll
// loop keeps its phase from one grid sync to the next (each CTA leaves at its own poll and
// arrives again the same code later), the last arrival is the CTA just behind the last one in
// phase, and the others' waits then average (c - 1) / c of the poll period whatever the spread:
// rows shim.grid_sync.{,probe.}c{2,4,16,32}_ns, docs/hw-accuracy.md, thirty-second pass (s26-phases).
Ps poll_phase_ps(const CudaThread& t, const NvidiaParams& p) {
  if (p.poll_phase_ns <= 0 || t.cta == nullptr || t.cta->launch == nullptr) return 0;
  return ns_to_ps(p.poll_phase_ns * t.cta->index / t.cta->launch->grid.count());
}

// An acquire load pays mem.acquire_*_load_ns when it reads a word the thread changed by one of
// its last two atomics or reds (the grid sync's count, the NVLink barrier's own signal): rows
// shim.grid_sync.*.c1_ns and shim.signal_wait.*.pe1_ns. With mem.acquire_on_change 1 a GPU-scope
// acquire poll also pays when it reads another value than the thread's last poll of the word
// (the poll that sees another SM's store): row flag.release_acquire_gpu.one_way_ns. A first read
// of a word others changed (a count read once) does not pay: with that cost, 4-CTA rows
// shim.dispatch_phases.*.p3_ns leave 10% (docs/hw-accuracy.md, twenty-eighth pass (s23-sync)).
// System-scope polls keep the own-word rule: paying on the change, app row
// litmus_mp_release_acquire goes 0.95 -> 1.25 (thirtieth pass (s24-flag)).
// With mem.acquire_gpu_last_rmw 1 a GPU-scope load pays for its own word only behind the thread's
// last atomic (the grid sync's poll): dispatch's count read after the grid sync, of the word its
// slot atomic changed, does not (rows shim.dispatch_phases.*.p2_ns / p3_ns, thirty-second pass).
// With mem.acquire_own_word_first_poll 1 only a loop's first poll pays for the own atomic's word; its later
// polls pay as any poll does, when they see a change: on the H200 the poller's atom.add 0 before each wait
// costs the acquire ping-pong nothing (flag.release_acquire_{gpu,sys}.own_atomic.one_way_ns 603.6 / 850.5
// against 605.5 / 843.5 without it, median repetitions; docs/hw-accuracy.md, thirty-ninth pass (s33-sync)).
bool acquire_paid(const CudaThread& t, uintptr_t a, uint64_t v, Scope scope, const NvidiaParams& p) {
  const bool on_change = (p.acquire_on_change >= 2 || (p.acquire_on_change > 0 && scope != Scope::Sys)) &&
                         t.last_poll_addr == a && t.last_poll_value != v;
  if (p.acquire_own_word_first_poll != 0 && t.poll_loop_polls > 0) return on_change;
  if (t.own_rmw_words[0] == a) return true;
  if (t.own_rmw_words[1] == a && (scope == Scope::Sys || p.acquire_gpu_last_rmw == 0)) return true;
  return on_change;
}

// A poll that sees another value than the thread's last poll of the word read (another SM's store seen), of a word
// in the 32 B sector of the thread's own last atomic, not the poll right behind that atomic (it reads its result):
// it samples the word no sooner than mem.own_atomic_poll_floor_ns after the atomic's issue. On the H100 (session 36's
// call D1) the poller's atom.add 0 on its flag before each wait costs the ping-pong nothing in one of two address
// groups set by the flag's window and +112-139 ns one way in the other, where the atomic itself takes ~90 ns longer
// (dependent atomics on that word, repetition by repetition), with a relaxed, relaxed.sys, volatile or acquire.gpu
// poll alike, and nothing behind a release store's longer one way (592 ns): a floor the loop hides, not a cost
// added to each wait. Row flag.relaxed_gpu.own_atomic.one_way_ns at its median repetition is the high group
// (docs/hw-accuracy.md, forty-second pass (s36-flag)).
// Only behind an atomic that reads the word (adds 0), what the row and every D1 variant measured: the grid sync's
// arrivals and the dispatch / pull slot counters change their word, and their address groups' costs are in their
// own fitted figures (mem.acquire_load_ns, mem.idle_release_gpu_ns at their median repetitions); with the floor
// behind them too 359 -> 354 of 368.
// The atomic's word need not be the polled one: in its 32 B sector the floor is the same (D2: 4 B after the flag,
// the same levels repetition by repetition), in another 128 B line there is none (256 B or 4 KiB after it).
constexpr int kSectorShift = 5;
bool own_atomic_floor_applies(const CudaThread& t, uintptr_t a, uint64_t v, bool behind_rmw) {
  return !behind_rmw && t.own_rmw_reads_only && (t.own_rmw_words[0] >> kSectorShift) == (a >> kSectorShift) &&
         t.last_poll_addr == a && t.last_poll_value != v;
}

// Waits for the last returning atomic's result, if not yet waited for.
void use_rmw(CudaThread& t) {
  if (t.rmw_word == 0) return;
  t.rmw_word = 0;
  if (t.rmw_back_ps > t.local_ps) this_scheduler().advance(t, t.rmw_back_ps - t.local_ps);
}

}  // namespace

void use_loads(CudaThread& t) {
  use_rmw(t);
  use_data_loads(t);
}

void use_data_loads(CudaThread& t) {
  if (t.loads_count == 0) return;
  Ps latest = t.local_ps;
  for (uint32_t i = 0; i < t.loads_count; ++i) latest = std::max(latest, t.loads[(t.loads_head + i) % CudaThread::kMaxLoadsInFlight]);
  t.loads_count = 0;
  t.load_group_addr = 0;
  if (latest > t.local_ps) this_scheduler().advance(t, latest - t.local_ps);
  // Loads kernel code has used: the register's write-back to that use (sm.load_use_ns), then the
  // code that waited for them. Words alone (an index, a count) are used at the L2 round trip:
  // on the GPU a word's load and its use take the chase's 151 ns (mem.load_latency.ws_1mib_ns),
  // the routing's `ldg` / `ld` of an expert +151 / +150 ns a token (rows
  // shim.dispatch_route.l2.7168.c1w1.{ldg,ldl1}_ns against .none_ns); sm.load_use_ns was fitted
  // on 16 B rows (shim.reduce_row.*), docs/hw-accuracy.md thirty-fourth pass (s28-route).
  if (t.loads_used) {
    const Ps use = t.loads_wide && !t.loads_wide_reread ? ns_to_ps(this_system().params().sm_load_use_ns) : 0;
    this_scheduler().advance(t, use + t.code_after_loads_ps);
  }
  t.loads_used = t.loads_narrow = t.loads_wide = false;
  t.loads_wide_reread = true;
  t.code_after_loads_ps = 0;
}

// The SM's L1 for the thread's plain data loads (sm.l1_bytes less the kernel's dynamic shared memory),
// or null without one.
static SmL1* sm_l1(CudaThread& t, const NvidiaParams& p) {
  if (p.sm_l1_bytes <= 0) return nullptr;
  std::unique_ptr<SmL1>& l1 = t.cta->ports.l1;
  if (!l1) {
    const uint64_t smem = t.cta->launch ? t.cta->launch->dyn_smem_bytes : 0;
    const auto total = static_cast<uint64_t>(p.sm_l1_bytes);
    l1 = std::make_unique<SmL1>(total > smem ? total - smem : 0);
  }
  return l1.get();
}

// An acquire of GPU or system scope: the SM's L1 no longer serves lines cached before it.
static void acquire_empties_l1(CudaThread& t, Scope scope, const NvidiaParams& p) {
  if (scope == Scope::Cta || p.sm_l1_bytes <= 0 || !t.cta->ports.l1) return;
  t.cta->ports.l1->clear();
}

void load(void* out, const void* addr, uint32_t bytes, Sem sem, Scope scope, Site site) {
  // A 16 B data load from global memory: code since the thread's last one is a loop's independent iterations.
  const bool data_load = sem == Sem::Weak && bytes >= 16 && !in_shared(addr, bytes);
  CudaThread& t = this_thread_at(data_load ? kCodeOpDataLoad : kCodeOpOther);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  if (in_shared(addr, bytes)) {
    std::memcpy(out, addr, bytes);
    s.busy(t);
    s.advance(t, op_ps());
    return;
  }
  const int gpu = t.cta->gpu;
  const int owner = owner_of(t, addr, bytes, "a load");
  const bool strong = sem != Sem::Weak;
  const auto a = reinterpret_cast<uintptr_t>(addr);
  // A poll of the word the thread's last atomic changed goes out behind that atomic, not after
  // its result (SASS: ATOMG, then LDG.STRONG of the same word; rows shim.grid_sync.*): it samples
  // the word as the atomic left it, or as a later one did. Any other load waits for the result
  // (its address or its use may depend on it).
  const bool behind_rmw = strong && t.rmw_word == a;
  if (!behind_rmw) use_rmw(t);
  // A poll loop: the thread's last strong load read this word and this one is not the first
  // behind the thread's own atomic (that one starts a loop).
  const bool repoll = strong && !behind_rmw && t.last_poll_addr == a;
  t.poll_loop_polls = repoll ? t.poll_loop_polls + 1 : 0;
  if (strong && ptx::has_acquire(sem) && scope != Scope::Sys && t.poll_loop_polls == 1) {
    if (sys.params().poll_phase_once == 0 || !t.poll_phase_set) t.local_ps += poll_phase_ps(t, sys.params());
    t.poll_phase_set = true;
  }
  // A strong load reads the owner's memory when the request gets there; a weak (data) load
  // is pipelined: modelled as reading at issue, and the thread goes on.
  Ps sample = strong ? t.local_ps + sys.one_way_ps(gpu, owner) : t.local_ps;
  sample = OrderModel::read_wait_ps(t.order, a, a + bytes, sample);
  if (strong) {
    use_data_loads(t);
    t.wait = {"polls a word (ld strong)", site.file, site.line, a, t.wait.value};
  }
  s.sync_to(t, sample);
  sys.visibility().settle(now_ps());
  std::memcpy(out, addr, bytes);
  sys.order().data_read(t.order, a, a + bytes, sample, site.file, site.line);
  if (bytes <= 8) sys.order().word_read(t.order, a, sem, scope, sample);
  if (strong) {
    const uint64_t v = read_u(static_cast<const uint8_t*>(out), std::min<uint32_t>(bytes, 8));
    t.wait.value = v;
    const bool paid = ptx::has_acquire(sem) && acquire_paid(t, a, v, scope, sys.params());  // before poll() records v
    const Ps floor = own_atomic_floor_applies(t, a, v, behind_rmw) && sys.params().own_atomic_poll_floor_ns > 0
                         ? t.own_rmw_issue_ps + ns_to_ps(sys.params().own_atomic_poll_floor_ns)
                         : 0;
    s.poll(t, a, v, bytes);
    t.local_ps = std::max(t.local_ps, sys.read_return_ps(owner, gpu, bytes, std::max(sample, floor)));
    if (paid)
      t.local_ps += ns_to_ps(scope == Scope::Sys ? sys.params().acquire_sys_load_ns : sys.params().acquire_load_ns);
    if (ptx::has_acquire(sem)) acquire_empties_l1(t, scope, sys.params());
    if (behind_rmw) use_rmw(t);  // the code after the poll compares its value with the atomic's
  } else {
    s.busy(t);
    t.wait = {};
    const auto& p = sys.params();
    const LoadPlacing at = data_load && owner == gpu ? place_in_group(t, a, p) : LoadPlacing{};
    const Ps far = at.far_wait ? ns_to_ps(p.sm_load_far_ns) : 0;
    // A 16 B data load of the own GPU's memory from lines the SM loaded before is served by its L1.
    // Words (routing, counters) still go to L2: a plain ld.global of the token's expert ids costs
    // what the no-allocate ldg does, packed or a line a token (rows shim.dispatch_route.l2.7168.*.ldl1*
    // against .ldg: docs/hw-calibration.md); with them in L1 the one-warp routing and step rows fall
    // 8-12% and shim.dispatch_phases.fresh.64tok.h7168.p1_ns leaves 10% (forty-first pass (s35-l1)).
    SmL1* l1 = data_load && owner == gpu ? sm_l1(t, p) : nullptr;
    const Ps l1_ready = l1 ? l1->hit_return_ps(a, bytes, sample, ns_to_ps(p.sm_l1_hit_ns)) : 0;
    // l2.reread_skips_use: a data load of lines read (by any SM's data load) since their last write is
    // a re-read. The first read after a host copy costs the GPU ~68 ns more (session 31's call D1: a
    // dependent chain over a copied 1 MiB window 219.3 ns a load, re-read 151); the model's
    // sm.load_use_ns (63.5) and far wait were fitted on reduce rows that read every line once, and a
    // reduce walk that wraps onto rows read before reads ~58-68 ns a load wait faster at k = 1 and
    // ~94 a pair at k = 8, what the two come to (docs/hw-accuracy.md, forty-second pass (s36-reduce)).
    // A re-read pays neither; an L1 hit is a re-read.
    const bool reread_rule = p.l2_reread_skips_use != 0 && data_load && owner == gpu;
    bool reread = false;
    if (l1_ready > 0) {
      reread = reread_rule;
      track_load(t, s, l1_ready);
    } else {
      Ps ready = weak_load_return_ps(sys, gpu, owner, addr, bytes, sample);
      L2Residency& cache = sys.l2(owner);
      reread = reread_rule && cache.reread(a, bytes);
      if (!reread) ready += far;
      if (reread) ready = std::max(ready, cache.first_read_usable_ps(a));
      // A first read's data is used sm.load_use_ns after its return: lanes of this SM waiting on its
      // fill (re-reads) and re-reads of other SMs meanwhile have it then too.
      const Ps usable = ready + (reread_rule && !reread ? ns_to_ps(p.sm_load_use_ns) : 0);
      if (reread_rule && !reread) cache.first_read(a, usable);
      if (l1) l1->filled(a, bytes, reread_rule ? usable : ready);
      track_load(t, s, ready);
    }
    t.loads_narrow |= bytes < 16;
    t.loads_wide |= bytes >= 16;
    if (bytes >= 16 && !reread) t.loads_wide_reread = false;
    t.local_ps += ns_to_ps(at.place == LoadPlace::Near ? p.sm_load_near_issue_ns : p.sm_load_issue_ns);
    if (data_load) t.code_op = kCodeOpDataLoad;
  }
}

void store(void* addr, const void* value, uint32_t bytes, Sem sem, Scope scope, Site site) {
  CudaThread& t = this_thread_at(sem == Sem::Weak ? kCodeOpPlainStore : kCodeOpOther);
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  s.busy(t);
  t.wait = {};
  if (in_shared(addr, bytes)) {
    std::memcpy(addr, value, bytes);
    s.advance(t, op_ps());
    return;
  }
  if (ptx::has_release(sem)) release_stall(t, scope);
  if (const Region* r = sys.addresses().find(addr, bytes); r && r->kind == RegionKind::kMmio) {
    // A doorbell: a write through the GPU's PCIe socket to its NIC's window, carrying what its
    // ringer had not ordered.
    if (r->pe != t.cta->gpu)
      throw DeviceTrap(fmt::format("store to {} from GPU {}: a GPU reaches only its own NIC's doorbells",
                                   addr_text(addr), t.cta->gpu));
    uint64_t v = 0;
    std::memcpy(&v, value, std::min<uint32_t>(bytes, 8));
    sys.gpu(t.cta->gpu).doorbell_store(reinterpret_cast<uintptr_t>(addr) - r->begin, v, t.local_ps, writer_of(t, site),
                                       sys.order().unordered(t.order, t.local_ps), t.order.unfenced);
    s.advance(t, op_ps());
    return;
  }
  const int gpu = t.cta->gpu;
  const int owner = owner_of(t, addr, bytes, "a store");
  const auto a = reinterpret_cast<uintptr_t>(addr);
  // The SM's write path takes every store's bytes; a thread waits while it is backed up
  // beyond what the SM queues (sm.store_queue_ns), and the store goes out in its turn.
  const auto& p = sys.params();
  // Booked at SystemC time, so in time order with the SM's other threads: a thread up to
  // sim.quantum_ns ahead would take the unit's slots before threads behind it issue, and the
  // warps' shares would hang on the quantum (rows fresh.plain_store.*: docs/hw-accuracy.md,
  // twentieth pass (s21-quant)).
  s.sync_to(t, t.local_ps);
  // With sm.plain_store_own_turn the store's turn is among the SM's plain stores only: the write path serves
  // the LSU's stores between the TMA unit's packets (32 B a clock shared by both), so a few bytes of words do
  // not wait for 7 KiB bulk stores other warps booked before them (pull's step at 4 x 4: its source words
  // waited behind the other warps' bulk stores while the warps ran in step, +150-245 ns a step against the
  // GPU's flat step; docs/hw-accuracy.md, forty-first pass (s35-pull)). Its bytes still take the shared path.
  // A first touch: the SM's first plain store to this granule of its own GPU since the CTA started
  // waits sm.store_first_touch_ns before it goes out (the one-warp words rows' one-time cost:
  // docs/hw-accuracy.md, forty-fourth pass (s38-touch)).
  if (p.sm_store_first_touch_ns > 0 && owner == gpu &&
      t.cta->ports.store_touched.insert(a / static_cast<uintptr_t>(p.sm_store_touch_bytes)).second) {
    t.local_ps += ns_to_ps(p.sm_store_first_touch_ns);
    s.sync_to(t, t.local_ps);
  }
  const Ps write_ps = transfer_ps(bytes, p.sm_store_gbytes_per_s);
  Ps accepted = t.cta->ports.write_path.reserve(t.local_ps, write_ps);
  if (p.sm_plain_store_own_turn != 0) accepted = t.cta->ports.plain_write_path.reserve(t.local_ps, write_ps);
  const Ps queued = accepted - std::min(accepted, ns_to_ps(p.sm_store_queue_ns));
  // It waits for its turn in SystemC time: the write-back below is booked from the present, which
  // would else be anywhere between its booking and its turn, by the quantum (row
  // fresh.bulk_store_words.*.c4w4: twenty-third pass (s22-bulk)).
  if (queued > t.local_ps) s.sync_to(t, queued);
  sys.l2_access(addr, bytes, /*write=*/true);
  const Ps issue = std::max(t.local_ps, accepted);  // its bytes leave the SM
  Landing l = sys.store_landing(gpu, owner, bytes, issue);
  Ps first = l.first_ps + sys.reorder_jitter_ps(owner != gpu);
  // A thread's writes to the same bytes land in program order (coherence).
  const Ps own = t.order.own.bound_ps() >= first ? t.order.own.overlap_visible_ps(a, a + bytes) : 0;
  if (own >= first) first = own + 1;
  const Ps last = first + (l.last_ps - l.first_ps);
  const WriterRef who = writer_of(t, site);
  VisibilityQueue::DoneFn done;
  if (bytes <= 8) {
    // A word: what it publishes is decided now, applied when it lands.
    auto state = std::make_shared<WordState>();
    state->writer = who;
    if (ptx::has_release(sem)) state->releases.push_back(sys.order().make_release(t.order, scope, issue));
    state->unordered = sys.order().unordered(t.order, issue);
    if (sem != Sem::Weak) state->unordered_by_rules = t.order.unfenced;  // a flag only when strong
    OrderModel* order = &sys.order();
    done = [order, a, state](Ps) { order->word_written(a, std::move(*state), false); };
  }
  sys.visibility().schedule(first, l.interval_ps, l.unit_bytes, static_cast<uint8_t*>(addr),
                            static_cast<const uint8_t*>(value), bytes, std::move(done));
  t.order.own.add({a, a + bytes, last, who});
  // Happens-before is tracked for stores to NVLink peers: what only a system-scope release
  // orders. (Local stores are covered by every CTA or GPU release, and a chain of those, which
  // grid syncs are, is not followed here: tracking them would report ordered data.)
  if (owner != gpu) OrderModel::wrote(t.order, {a, a + bytes, last, who});
  prune(t);
  s.advance(t, op_ps());
  // A plain global store: code up to the thread's next one is a loop's independent iterations.
  if (sem == Sem::Weak) t.code_op = kCodeOpPlainStore;
}

uint64_t atomic(void* addr, AtomicOp op, AtomicType type, uint64_t operand, uint64_t compare, Sem sem, Scope scope,
                bool want_result, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  const uint32_t bytes = type_bytes(type);
  if (in_shared(addr, bytes)) {
    auto* p = static_cast<uint8_t*>(addr);
    const uint64_t old = read_u(p, bytes);
    const uint64_t v = apply_atomic(op, type, old, operand, compare);
    std::memcpy(p, &v, bytes);
    if (op == AtomicOp::Cas && old != compare) {
      s.poll(t, reinterpret_cast<uintptr_t>(addr), old, bytes);
    } else {
      s.busy(t);
    }
    s.advance(t, op_ps());
    return old;
  }
  if (ptx::has_release(sem)) release_stall(t, scope);
  const int gpu = t.cta->gpu;
  const int owner = owner_of(t, addr, bytes, "an atomic");
  const auto a = reinterpret_cast<uintptr_t>(addr);
  // Booked at SystemC time, in time order with the other threads: the atomic port and the
  // address's turn at L2 (atomic_slot, a busy-until time) taken ahead of time made rows
  // shim.pull_step.* and shim.pull_phases.* hang on sim.quantum_ns (docs/hw-accuracy.md,
  // twentieth pass (s21-quant)).
  s.sync_to(t, t.local_ps);
  const Ps issue = t.local_ps;
  const auto& p = sys.params();
  // The atomic leaves through the SM's atomic port and is performed at the owner's L2 when the
  // request arrives (after the thread's earlier writes to the same bytes), in its turn on
  // that address.
  const Ps sent = t.cta->ports.atomic_issue.reserve(issue, ns_to_ps(p.sm_atomic_issue_ns));
  Ps perform = gpu == owner ? sent + sys.one_way_ps(gpu, owner) : sys.store_landing(gpu, owner, 16, sent).last_ps;
  const Ps own = t.order.own.bound_ps() >= perform ? t.order.own.overlap_visible_ps(a, a + bytes) : 0;
  if (own >= perform) perform = own + 1;
  const uint64_t warp_key = reinterpret_cast<uintptr_t>(t.cta) * 64 + t.warp;
  perform = sys.l2(owner).atomic_slot(a, perform, warp_key, issue, ns_to_ps(p.atomic_same_address_ns));
  const bool hit = sys.l2_access(addr, bytes, /*write=*/true);
  struct Result {
    uint64_t old = 0;
    std::vector<ReleaseInfo> releases;
    WriteSet unordered;
  };
  auto result = std::make_shared<Result>();
  auto state = std::make_shared<WordState>();
  const WriterRef who = writer_of(t, site);
  state->writer = who;
  if (ptx::has_release(sem)) state->releases.push_back(sys.order().make_release(t.order, scope, issue));
  state->unordered = sys.order().unordered(t.order, issue);
  state->unordered_by_rules = t.order.unfenced;
  OrderModel* order = &sys.order();
  const bool acquire = ptx::has_acquire(sem);
  sys.visibility().schedule_action(perform, [=](Ps) {
    auto* p = reinterpret_cast<uint8_t*>(a);
    result->old = read_u(p, bytes);
    const uint64_t v = apply_atomic(op, type, result->old, operand, compare);
    std::memcpy(p, &v, bytes);
    order->word_written(a, std::move(*state), true);
  });
  t.order.own.add({a, a + bytes, perform, who});  // (an RMW's word is a flag or counter, not data: not `wrote`)
  if (t.own_rmw_words[0] != a) t.own_rmw_words[1] = t.own_rmw_words[0], t.own_rmw_words[0] = a;
  t.own_rmw_issue_ps = issue;
  t.own_rmw_reads_only = (op == AtomicOp::Add || op == AtomicOp::Sub || op == AtomicOp::Or || op == AtomicOp::Xor) && operand == 0;
  prune(t);
  if (!want_result) {
    s.busy(t);
    t.wait = {};
    s.advance(t, op_ps());
    return 0;
  }
  const Ps unit = ns_to_ps(p.atomic_unit_ns + (hit ? 0.0 : p.atomic_miss_ns));
  const Ps back = gpu == owner ? perform + unit + ns_to_ps(p.l2_latency_ns)
                               : perform + unit + sys.nvlink().one_way_ps() + ns_to_ps(p.l2_latency_ns);
  t.wait = {"waits for an atomic's result", site.file, site.line, a, t.wait.value};
  // The result is known once the atomic is performed; the thread goes on from its issue and
  // waits for the result where it uses it (use_loads).
  s.sync_to(t, perform);
  sys.visibility().settle(now_ps());
  t.local_ps = issue + op_ps();
  t.rmw_word = a;
  t.rmw_back_ps = back;
  if (acquire || sem == Sem::Relaxed) order->word_read(t.order, a, acquire ? Sem::Acquire : Sem::Relaxed, scope, perform);
  if (op == AtomicOp::Cas && result->old != compare) {
    t.wait.what = "spins on a compare-and-swap";
    t.wait.value = result->old;
    s.poll(t, a, result->old, bytes);
  } else {
    s.busy(t);
    t.wait = {};
  }
  return result->old;
}

void fence(Sem sem, Scope scope, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  s.busy(t);
  t.wait = {};
  release_stall(t, scope, true);
  sys.order().fence_acquire(t.order, scope, t.local_ps);
  acquire_empties_l1(t, scope, sys.params());
  (void)sem;
  (void)site;
  s.advance(t, op_ps());
}

uint64_t clock64() {
  CudaThread& t = this_thread();
  use_data_loads(t);  // not an atomic's result: the clock read does not use its register
  return static_cast<uint64_t>(static_cast<double>(t.local_ps) / 1000.0 * this_system().params().sm_clock_ghz);
}

void nanosleep(uint32_t ns) {
  // Not "busy": a poll loop that sleeps between polls still counts as idle when nothing changes.
  CudaThread& t = this_thread();
  use_loads(t);
  this_scheduler().sync_to(t, t.local_ps + ns_to_ps(ns));
}

void trap(const char* why) { throw DeviceTrap(why); }

}  // namespace symsim::nv
