// The TMA unit of an SM (1D bulk copies, cp.async.bulk) and mbarriers (see thread_ops.h).
// A bulk load reads its source when the request reaches the owner's memory (a remote read
// over NVLink for a peer's address) and completes its bytes on an mbarrier; a bulk store
// snapshots shared memory at issue and lands as a weak write, tracked in the thread's bulk
// group until tma_wait. An mbarrier phase completes when its arrivals and transaction bytes
// are all in; its completion time is the latest arrival or byte.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

namespace {

constexpr uintptr_t kBulkLineBytes = 128;  // L2 line: a bulk copy's partial lines

// A bulk copy whose global range starts or ends inside a line.
bool unaligned_bulk(const void* gmem, uint32_t bytes) {
  const auto a = reinterpret_cast<uintptr_t>(gmem);
  return ((a | (a + bytes)) & (kBulkLineBytes - 1)) != 0;
}

// Offset of a shared-memory address within a 128 B line, from the base of the block it is in
// (dynamic shared memory, the CTA's static variables; the GPU aligns both at least so).
uintptr_t smem_line_offset(const Cta& c, const void* smem) {
  const auto a = reinterpret_cast<uintptr_t>(smem);
  const auto d = reinterpret_cast<uintptr_t>(c.smem.data());
  if (!c.smem.empty() && a >= d && a < d + c.smem.size()) return (a - d) & (kBulkLineBytes - 1);
  const auto v = reinterpret_cast<uintptr_t>(c.static_vars.get());
  if (v && a >= v && a < v + c.static_vars_bytes) return (a - v) & (kBulkLineBytes - 1);
  return a & (kBulkLineBytes - 1);
}

Ps now_ps() { return static_cast<Ps>(sc_core::sc_time_stamp().value()); }
std::string at(Site s) { return s.file ? site_text(s.file, s.line) : "?"; }

Mbarrier& mbarrier(Cta& c, void* mbar, Site site) {
  auto it = c.mbarriers.find(reinterpret_cast<uintptr_t>(mbar));
  if (it == c.mbarriers.end())
    throw DeviceTrap(fmt::format("mbarrier at {} used at {} before mbarrier.init", addr_text(mbar),
                                 at(site)));
  return it->second;
}

// Completes the current phase if its arrivals and bytes are all in.
void try_complete(Cta& c, uintptr_t key, Mbarrier& m) {
  if (m.pending != 0 || m.tx != 0) return;
  const Ps t = m.latest_ps;
  const uint32_t parity = static_cast<uint32_t>(m.phase & 1);
  m.complete_ps[parity] = t;
  m.armed_done[parity] = m.armed;
  m.armed = false;
  ++m.phase;
  m.pending = m.expected;
  m.tx = 0;
  m.latest_ps = 0;
  GpuScheduler& s = this_system().scheduler(c.gpu);
  for (size_t i = 0; i < c.mbar_waiters.size();) {
    CudaThread* w = c.mbar_waiters[i];
    if (w->mbar_wait == key && w->mbar_parity == parity) {
      c.mbar_waiters.erase(c.mbar_waiters.begin() + static_cast<std::ptrdiff_t>(i));
      s.wake(*w, t);
    } else {
      ++i;
    }
  }
}

void complete_tx(Cta& c, void* mbar, uint32_t bytes, Ps t_done, Site site) {
  const auto key = reinterpret_cast<uintptr_t>(mbar);
  Mbarrier& m = mbarrier(c, mbar, site);
  m.tx -= bytes;
  m.latest_ps = std::max(m.latest_ps, t_done);
  if (m.pending == 0 && m.tx < 0)
    throw DeviceTrap(fmt::format("mbarrier at {}: {} more transaction bytes completed than the phase expects (at {})",
                                 addr_text(key), -m.tx, at(site)));
  try_complete(c, key, m);
}

void check_bulk(const void* gmem, const void* smem, uint32_t bytes, Site site, const char* what) {
  if (bytes == 0 || bytes % 16 != 0 || reinterpret_cast<uintptr_t>(gmem) % 16 != 0 || reinterpret_cast<uintptr_t>(smem) % 16 != 0)
    throw DeviceTrap(fmt::format("{} at {}: addresses and size must be 16 B aligned (size {} B)", what, at(site),
                                 bytes));
  if (!in_shared(smem, bytes))
    throw DeviceTrap(fmt::format("{} at {}: {} B at {} is not in the CTA's shared memory", what, at(site),
                                 bytes, addr_text(smem)));
}

int owner_checked(const CudaThread& t, const void* p, uint32_t bytes, Site site, const char* what) {
  NvidiaSystem& sys = this_system();
  const int owner = sys.memory().in_hbm(p, bytes) ? sys.memory().gpu_of(p) : -1;
  if (owner < 0 || !sys.reachable(t.cta->gpu, owner))
    throw DeviceTrap(fmt::format("{} at {}: {} B at {} is not in memory GPU {} can reach", what, at(site),
                                 bytes, addr_text(p), t.cta->gpu));
  return owner;
}

// When a bulk load's bytes are all in shared memory: the SM's TMA engine takes the copy for
// its engine cost or its bytes at the load cap, whichever is longer; from its start the copy
// takes the one-copy time of its source (L2 or HBM) and size; HBM bandwidth on a miss, NVLink
// for a peer's memory.
Ps load_done_ps(CudaThread& t, Ps from, const void* src, const void* dst, uint32_t bytes, int owner, Ps sample) {
  NvidiaSystem& sys = this_system();
  const auto& p = sys.params();
  // A load that starts or ends inside a 128 B line takes the engine at a lower rate (rows
  // shim.load_round_warp.l2.7184.c1w8_ns, tma.load_unaligned_gbytes_per_s); with
  // tma.load_shifted_unaligned so does an aligned row landing 16 B into a line of shared memory
  // (dispatch's header before the row: rows shim.dispatch_route.l2.7168.c1w4.none_ns and
  // shim.copy_round_warp.l2.7184.c1w4_ns take the same time on the GPU).
  const bool shifted = p.tma_load_shifted_unaligned != 0 &&
                       (reinterpret_cast<uintptr_t>(src) & (kBulkLineBytes - 1)) != smem_line_offset(*t.cta, dst);
  const bool unaligned = p.tma_load_unaligned_gbytes_per_s > 0 && (shifted || unaligned_bulk(src, bytes));
  const Ps occupancy = std::max(ns_to_ps(p.tma_engine_ns),
                                transfer_ps(bytes, unaligned ? p.tma_load_unaligned_gbytes_per_s : p.tma_load_gbytes_per_s));
  // Shared with the CTA's other threads the engine is the closed queue's mean (tma.engine_mva).
  const Ps start = p.tma_engine_mva != 0 ? t.cta->ports.tma_mva.book(t.cta->ports.tma_engine, t.tid, from, occupancy,
                                                                      p.tma_engine_mva_pass_linear != 0,
                                                                      p.tma_engine_mva_pair_fixed_pass != 0)
                                         : t.cta->ports.tma_engine.reserve(from, occupancy);
  const bool hit = sys.l2_access(src, bytes);
  // Its bytes: with tma.load_unaligned_streams_aligned an unaligned load streams as an aligned
  // one after a fixed extra time (one warp's 7184 B load round is ~11 ns over a 7168 B one on the
  // GPU, where its engine rate would add 43; forty-first pass (s35-rows)); without it, no faster
  // than the engine takes them (twentieth pass (s21-route)).
  const bool slow_stream = unaligned && p.tma_load_unaligned_streams_aligned == 0;
  const double stream_gbytes_per_s =
      slow_stream ? std::min(p.tma_copy_gbytes_per_s, p.tma_load_unaligned_gbytes_per_s) : p.tma_copy_gbytes_per_s;
  const Ps extra = unaligned && !slow_stream ? ns_to_ps(p.tma_load_unaligned_extra_ns) : 0;
  Ps done = start + ns_to_ps(hit ? p.tma_load_l2_ns : p.tma_load_hbm_ns) + transfer_ps(bytes, stream_gbytes_per_s) + extra;
  if (!hit && p.tma_load_hbm_inflight_ns > 0) {
    auto& inflight = t.cta->ports.hbm_loads_done;
    inflight.erase(std::remove_if(inflight.begin(), inflight.end(), [start](Ps d) { return d <= start; }), inflight.end());
    done += static_cast<Ps>(inflight.size()) * ns_to_ps(p.tma_load_hbm_inflight_ns);
    inflight.push_back(done);
  }
  if (owner != t.cta->gpu || !hit) done = std::max(done, sys.read_return_ps(owner, t.cta->gpu, bytes, sample));
  done += sys.dirty_victims_wait_ps(owner);
  return std::max(done, sample + 1);
}

// A bulk store's landing, no faster than one copy alone: its fixed time, then its bytes at the
// SM's write rate (unit by unit).
Landing stretched(Landing l, uint64_t bytes, Ps t0_ps, double gbytes_per_s) {
  const Ps last = t0_ps + transfer_ps(bytes, gbytes_per_s);
  if (last <= l.last_ps) return l;
  const uint64_t units = l.unit_bytes ? (bytes + l.unit_bytes - 1) / l.unit_bytes : 1;
  l.first_ps = std::max(l.first_ps, t0_ps + transfer_ps(std::min<uint64_t>(bytes, l.unit_bytes), gbytes_per_s));
  if (units <= 1 || l.first_ps >= last) {
    l.first_ps = l.last_ps = std::max(l.first_ps, last);
    l.interval_ps = 0;
    return l;
  }
  l.interval_ps = (last - l.first_ps) / (units - 1);
  l.last_ps = l.first_ps + (units - 1) * l.interval_ps;
  return l;
}

}  // namespace

void tma_load(void* smem_dst, const void* gmem_src, uint32_t bytes, void* mbar, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  NvidiaSystem& sys = this_system();
  GpuScheduler& s = this_scheduler();
  s.busy(t);
  check_bulk(gmem_src, smem_dst, bytes, site, "tma_load_1d");
  mbarrier(*t.cta, mbar, site);
  const int gpu = t.cta->gpu;
  const int owner = owner_checked(t, gmem_src, bytes, site, "tma_load_1d");
  const auto a = reinterpret_cast<uintptr_t>(gmem_src);
  // Booked at SystemC time (the engine, L2's lines, HBM), in time order with the SM's other
  // threads, like plain loads and stores.
  s.sync_to(t, t.local_ps);
  // The first bulk load after the thread waited out its stores starts later (rows
  // shim.copy_round*.c1w1_ns, tma.load_after_store_ns); the thread itself goes on.
  const Ps from = std::max(t.local_ps, t.bulk_load_from_ps);
  t.bulk_load_from_ps = 0;
  const Ps issue = from + ns_to_ps(sys.params().tma_issue_ns);
  Ps sample = std::max(issue + sys.one_way_ps(gpu, owner), OrderModel::read_wait_ps(t.order, a, a + bytes));
  sys.order().data_read(t.order, a, a + bytes, sample, site.file, site.line);
  const Ps done = load_done_ps(t, from, gmem_src, smem_dst, bytes, owner, sample);
  std::weak_ptr<char> alive = t.cta->alive;
  Cta* cta = t.cta;
  VisibilityQueue* vis = &sys.visibility();
  sys.visibility().schedule_action(sample, [=](Ps) {
    auto data = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t*>(gmem_src),
                                                       static_cast<const uint8_t*>(gmem_src) + bytes);
    vis->schedule_action(done, [=](Ps) {
      if (alive.expired()) return;
      std::memcpy(shared_storage(*cta, smem_dst), data->data(), bytes);
    });
  });
  complete_tx(*t.cta, mbar, bytes, done, site);
  s.advance(t, ns_to_ps(sys.params().tma_load_issue_ns));
}

void tma_store(void* gmem_dst, const void* smem_src, uint32_t bytes, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  NvidiaSystem& sys = this_system();
  GpuScheduler& s = this_scheduler();
  s.busy(t);
  check_bulk(gmem_dst, smem_src, bytes, site, "tma_store_1d");
  // A marked loop's first store runs the SASS's code from the loop's head to it (sm.store_loop_first_store_head):
  // the host count before it is the code the SASS has there only in part (s31-store's fixed part).
  if (t.store_loop_ns > 0 && !t.store_loop_stored && t.store_loop_pre_ns > t.store_loop_host_ns)
    s.advance(t, ns_to_ps(t.store_loop_pre_ns - t.store_loop_host_ns));
  const int gpu = t.cta->gpu;
  const int owner = owner_checked(t, gmem_dst, bytes, site, "tma_store_1d");
  const auto a = reinterpret_cast<uintptr_t>(gmem_dst);
  const auto& p = sys.params();
  // One thread's bulk stores issue at most one per tma.store_gap_ns; its other work (bulk loads
  // included) overlaps the gap (rows tma_sm.store.1k.x{2,4}, shim.store_round_warp.*).
  if (t.bulk_store_from_ps > t.local_ps) s.advance(t, t.bulk_store_from_ps - t.local_ps);
  // Booked at SystemC time, like a plain store (thread_ops.cpp): a thread up to sim.quantum_ns
  // ahead would take the engine's and the write path's slots before threads behind it issue
  // (rows shim.dispatch_route.*, shim.dispatch_step.*.c4w4: twenty-third pass (s22-bulk)).
  s.sync_to(t, t.local_ps);
  if (p.tma_store_gap_ns > 0) t.bulk_store_from_ps = t.local_ps + ns_to_ps(p.tma_store_gap_ns);
  // The engine takes the copy, then the SM's write path its bytes (as plain stores' bytes);
  // one store alone lands tma.store_ns plus its bytes' time after it is issued.
  // With tma.store_holds_engine the engine takes the store from its issue and streams its bytes
  // out: bulk loads issued meanwhile, the thread's own next one and other warps', queue behind
  // them (rows shim.copy_round_warp.*: the next load waits for the last store's bytes from about
  // its issue, not tma.store_gap_ns later). Else it holds the engine for tma.engine_ns at issue.
  // A store that starts or ends inside a 128 B line writes its bytes at a lower rate (rows
  // shim.store_round_warp.l2.{7168,7184}.c1w{4,8}_ns, tma.store_unaligned_gbytes_per_s), unless
  // it starts where the thread's last bulk store ended while that one is still in flight: the
  // line they share is written whole (rows shim.store_round_warp.l2.{7184,7k}.c1w1_ns, one warp's
  // 7184 B messages back to back: 118.5 ns a round, 117.5 for 7168 B; with 4 or 8 warps each
  // message's neighbours are other warps' and the rate is 45.5 GB/s; docs/hw-accuracy.md,
  // thirty-first pass (s25-store)).
  const bool continues = t.bulk_store_end == a && t.bulk_store_landed_ps > t.local_ps;
  const bool unaligned = p.tma_store_unaligned_gbytes_per_s > 0 && unaligned_bulk(gmem_dst, bytes) && !continues;
  // A store with a partial edge line (it starts or ends inside a 128 B line) that starts at none of
  // the ends of the SM's last bulk stores holds its thread's next bulk load until its bytes would have
  // left at tma.partial_store_floor_gbytes_per_s from its issue. On the H200 a lone warp's dispatch
  // round reads 540 ns when each message continues its last (packed), 584 when each starts a fresh
  // line (padded) and 590 with four SMs' messages interleaved; on the H100 the padded round is 39 ns
  // over a whole-line one, 1040 B rows pay a few ns where 7184 B ones pay ~60 (a cost in the bytes),
  // and four warps of one SM, whose messages continue each other's, pay nothing (docs/hw-accuracy.md,
  // forty-second pass (s36-steps); rows shim.dispatch_route.l2.7168.c4w1.*).
  if (p.tma_partial_store_floor_gbytes_per_s > 0) {
    auto& ports = t.cta->ports;
    const bool sm_continues = std::find(ports.bulk_store_ends.begin(), ports.bulk_store_ends.end(), a) != ports.bulk_store_ends.end();
    if (unaligned_bulk(gmem_dst, bytes) && !sm_continues)
      t.bulk_load_from_ps = std::max(t.bulk_load_from_ps, t.local_ps + transfer_ps(bytes, p.tma_partial_store_floor_gbytes_per_s));
    ports.bulk_store_ends[ports.bulk_store_next++ % ports.bulk_store_ends.size()] = a + bytes;
  }
  const double write_gbytes_per_s = unaligned ? p.tma_store_unaligned_gbytes_per_s : p.sm_store_gbytes_per_s;
  const Ps write_ps = transfer_ps(bytes, write_gbytes_per_s);
  const bool holds = p.tma_store_holds_engine != 0;
  Ps engine = holds ? t.local_ps : t.cta->ports.tma_engine.reserve(t.local_ps, ns_to_ps(p.tma_engine_ns));
  if (holds) {
    const Ps hold_ps = std::max(ns_to_ps(p.tma_engine_ns), write_ps);
    // The hold is booked tma.store_hold_after_issue_ns after the issue: a bulk load the thread issues
    // behind its store waits for the hold's end that much later (one warp's dispatch send step,
    // row shim.copy_round_warp.l2.7168.c1w1_ns); the store's bytes still leave from the issue, so its
    // landing is as before when nothing waits (docs/hw-accuracy.md, fortieth pass (s34-tma), forty-first
    // pass (s35-rows): with an unaligned load's bytes streamed as an aligned one's).
    const Ps after_ps = ns_to_ps(p.tma_store_hold_after_issue_ns);
    const Ps hold_from = t.local_ps + ns_to_ps(p.tma_store_issue_ns) + after_ps;
    if (p.tma_engine_mva != 0) {
      // Shared, the store waits its mean wait before its bytes go out, as a load does (tma.engine_mva;
      // rows shim.copy_round.*.c{1,4}w4_ns: 0.83-0.85 x the GPU when only the loads waited).
      const Ps held = t.cta->ports.tma_mva.book(t.cta->ports.tma_engine, t.tid, hold_from, hold_ps,
                                                    p.tma_engine_mva_pass_linear != 0,
                                                    p.tma_engine_mva_pair_fixed_pass != 0);
      engine = std::max(engine, held - ns_to_ps(p.tma_store_issue_ns) - after_ps);
    } else {
      const Ps held = t.cta->ports.tma_engine.reserve(hold_from, hold_ps);
      if (after_ps > 0) engine = std::max(engine, held - ns_to_ps(p.tma_store_issue_ns) - after_ps);
    }
  }
  const Ps start = t.cta->ports.write_path.reserve(engine, write_ps);
  sys.l2_access(gmem_dst, bytes, /*write=*/true);
  const Landing l = stretched(sys.store_landing(gpu, owner, bytes, start), bytes,
                              start + ns_to_ps(p.tma_store_ns), write_gbytes_per_s);
  const Ps first = l.first_ps + sys.reorder_jitter_ps(owner != gpu);
  const Ps last = first + (l.last_ps - l.first_ps);
  sys.visibility().schedule(first, l.interval_ps, l.unit_bytes, static_cast<uint8_t*>(gmem_dst),
                            static_cast<const uint8_t*>(smem_src), bytes);
  t.order.bulk.add({a, a + bytes, last,
                    {WriterKind::Tma, gpu, static_cast<int>(t.cta->index), static_cast<int>(t.tid), site.file, site.line}});
  t.bulk_open = true;
  t.bulk_store_end = a + bytes;
  t.bulk_store_landed_ps = last;
  t.bulk_store_issue_ps = t.local_ps;
  t.bulk_store_since_sync = true;
  t.bulk_open_ps = std::max(t.bulk_open_ps, last);
  s.advance(t, ns_to_ps(p.tma_store_issue_ns));
  // A loop naming its SASS's code from one bulk store to the next (ptx::store_loop_code): the thread
  // runs it now; its host-counted code is dropped from here on (code_cost.cpp).
  if (t.store_loop_ns > 0) {
    t.store_loop_stored = true;
    s.advance(t, ns_to_ps(t.store_loop_ns));
  }
}

void tma_commit() {
  CudaThread& t = this_thread();
  this_scheduler().busy(t);
  t.bulk_groups.push_back(t.bulk_open ? t.bulk_open_ps : t.local_ps);
  t.bulk_open = false;
  t.bulk_open_ps = 0;
}

void tma_wait(uint32_t pending, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  s.busy(t);
  Ps until = t.local_ps;
  size_t drop = t.bulk_groups.size() > pending ? t.bulk_groups.size() - pending : 0;
  for (size_t i = 0; i < drop; ++i) until = std::max(until, t.bulk_groups[i]);
  t.bulk_groups.erase(t.bulk_groups.begin(), t.bulk_groups.begin() + static_cast<std::ptrdiff_t>(drop));
  t.wait = {"waits for its TMA stores (bulk wait_group)", site.file, site.line, 0, 0};
  const Ps waited_ps = until > t.local_ps ? until - t.local_ps : 0;
  s.sync_to(t, until);
  t.wait = {};
  // The code up to its next operation runs inside the wait, up to sm.code_after_bulk_wait_ns
  // (code_cost.cpp; this_thread() clears it at that operation).
  t.code_paid_by_wait_ps = std::min(waited_ps, ns_to_ps(this_system().params().sm_code_after_bulk_wait_ns));
  const auto& p = this_system().params();
  // The next bulk load starts tma.load_after_store_ns after this wait, and no sooner than
  // tma.load_after_store_issue_ns after the last store's issue: small rounds whose store lands
  // early still pay the floor (rows shim.copy_round{,_read,_2buf,_other}.l2.{1k,4k}.c1w1_ns read
  // 481-484 ns at 1 KiB and 4 KiB alike; docs/hw-accuracy.md, thirty-second pass (s26-copy)).
  if (drop > 0 && t.bulk_groups.empty() && (p.tma_load_after_store_ns > 0 || p.tma_load_after_store_issue_ns > 0))
    t.bulk_load_from_ps = std::max(t.local_ps + ns_to_ps(p.tma_load_after_store_ns),
                                   t.bulk_store_issue_ps + ns_to_ps(p.tma_load_after_store_issue_ns));
  // Landed stores no longer need ordering; with no group left in flight none are pending.
  t.order.bulk.prune(now_ps());
  if (t.bulk_groups.empty() && !t.bulk_open) t.order.bulk.clear();
}

void mbar_init(void* mbar, uint32_t count) {
  CudaThread& t = this_thread();
  this_scheduler().busy(t);
  if (!in_shared(mbar, 8)) throw DeviceTrap("mbarrier.init on an address outside shared memory");
  Mbarrier m;
  m.expected = m.pending = count;
  t.cta->mbarriers[reinterpret_cast<uintptr_t>(mbar)] = m;
  std::memset(mbar, 0, 8);
  this_scheduler().advance(t, issue_ps(t, this_system().params().sm_op_ns, this_system().params().sm_issue_slot_ns));
}

void mbar_arrive(void* mbar, uint32_t count, uint32_t tx_bytes, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  this_scheduler().busy(t);
  Mbarrier& m = mbarrier(*t.cta, mbar, site);
  if (count > m.pending)
    throw DeviceTrap(fmt::format("mbarrier at {}: {} arrivals at {} but only {} missing in this phase",
                                 addr_text(mbar), count, at(site), m.pending));
  m.tx += tx_bytes;
  m.armed = m.armed || tx_bytes > 0;
  m.pending -= count;
  m.latest_ps = std::max(m.latest_ps, t.local_ps);
  try_complete(*t.cta, reinterpret_cast<uintptr_t>(mbar), m);
  const auto& p = this_system().params();
  // Arming for bulk loads costs the issuing thread once per phase, whatever the copies on it.
  this_scheduler().advance(t, issue_ps(t, p.sm_op_ns, p.sm_issue_slot_ns) + (tx_bytes ? ns_to_ps(p.tma_arm_ns) : 0));
}

void mbar_expect_tx(void* mbar, uint32_t tx_bytes) {
  CudaThread& t = this_thread();
  Mbarrier& m = mbarrier(*t.cta, mbar, {});
  m.tx += tx_bytes;
  m.armed = m.armed || tx_bytes > 0;
  if (tx_bytes) this_scheduler().advance(t, ns_to_ps(this_system().params().tma_arm_ns));
}

bool mbar_test(void* mbar, uint32_t parity, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  Mbarrier& m = mbarrier(*t.cta, mbar, site);
  parity &= 1;
  const bool done = (m.phase & 1) != parity && t.local_ps >= m.complete_ps[parity];
  this_scheduler().advance(t, issue_ps(t, this_system().params().sm_op_ns, this_system().params().sm_issue_slot_ns));
  if (done) {
    this_scheduler().sync_to(t, t.local_ps);
    this_system().visibility().settle(now_ps());
  }
  return done;
}

void mbar_wait(void* mbar, uint32_t parity, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  s.busy(t);
  const Ps wait_from_ps = t.local_ps;
  Mbarrier& m = mbarrier(*t.cta, mbar, site);
  parity &= 1;
  if ((m.phase & 1) != parity) {
    s.sync_to(t, m.complete_ps[parity]);
  } else {
    t.mbar_wait = reinterpret_cast<uintptr_t>(mbar);
    t.mbar_parity = parity;
    t.cta->mbar_waiters.push_back(&t);
    t.wait = {"waits on an mbarrier phase", site.file, site.line, reinterpret_cast<uintptr_t>(mbar), m.phase};
    s.block(t);
  }
  // Seeing a phase armed for bulk loads complete costs the waiter this, whatever the order of
  // its arm and its copies (rows fresh.bulk_load.*, shim.load_round_warp.*: copy first).
  const double armed_wait_ns = sys.params().tma_armed_wait_ns;
  // A phase completing within tma.armed_wait_spin_ns of the wait's start is seen as one already
  // complete: the cost runs from the wait's start (rows tma_sm.load_l2.{1,2,4}k.x2_gbps at the
  // issuing thread's floor, 112.7 ns a copy, where 8k.x2 is not: twenty-fifth pass (s22-tma)).
  if (armed_wait_ns > 0 && mbarrier(*t.cta, mbar, site).armed_done[parity]) {
    const Ps cost_ps = ns_to_ps(armed_wait_ns);
    const Ps waited_ps = t.local_ps - wait_from_ps;
    const double spin_ns = sys.params().tma_armed_wait_spin_ns;
    const bool spun = spin_ns > 0 && waited_ps > 0 && waited_ps <= ns_to_ps(spin_ns);
    s.advance(t, spun ? (cost_ps > waited_ps ? cost_ps - waited_ps : 0) : cost_ps);
  }
  // Bytes the phase's bulk loads brought land in shared memory by its completion time.
  s.sync_to(t, t.local_ps);
  sys.visibility().settle(now_ps());
  t.wait = {};
}

}  // namespace symsim::nv
