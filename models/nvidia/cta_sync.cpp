// CTA barriers and warp collectives (see thread_ops.h). Both are rendezvous of fibers: the
// last participant to arrive computes the result and wakes the others at the release time.
// __syncthreads and __syncwarp also order memory among their participants (CTA scope): each
// arriving thread's in-flight writes to other GPUs travel to all participants as obligations.
#include <fmt/format.h>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"

namespace symsim::nv {

namespace {

// A warp collective's traps, out of line: their messages' formatting made warp_op's frame 288
// bytes, and each resumption of a thread that waits in it touches the fiber-stack lines of that
// frame and of the calls below it (docs/performance.md, session 24).
[[noreturn, gnu::cold, gnu::noinline]] void warp_trap_lane(Site site, uint32_t lane, uint32_t mask) {
  throw DeviceTrap(fmt::format("warp collective at {}: lane {} is not in its mask {:#x}", site_text(site.file, site.line), lane, mask));
}
[[noreturn, gnu::cold, gnu::noinline]] void warp_trap_width(Site site, uint32_t width) {
  throw DeviceTrap(fmt::format("warp collective at {}: width {} is not a power of two up to 32", site_text(site.file, site.line),
                               width));
}
[[noreturn, gnu::cold, gnu::noinline]] void warp_trap_disagree(Site site, uint32_t warp, uint32_t mask, uint32_t expected) {
  throw DeviceTrap(fmt::format("warp collective at {}: lanes of warp {} disagree (operation or mask {:#x} vs {:#x})",
                               site_text(site.file, site.line), warp, mask, expected));
}

void release_into(CudaThread& t, SyncCarry& carry, bool wait = true) {
  prune_landed(t);
  this_system().order().barrier_arrive(t.order, t.local_ps, carry, wait);
}

}  // namespace

void cta_barrier(uint32_t id, uint32_t count, Site site) {
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  Cta& c = *t.cta;
  s.busy(t);
  Cta::Barrier& b = c.barriers[id];
  const uint32_t expected = count == 0 ? c.live : count;
  release_into(t, b.carry);
  b.latest_ps = std::max(b.latest_ps, t.local_ps);
  if (++b.arrived >= expected) {
    // Released in place, then erased (a moved-out copy was 128 bytes of the frame that waiting
    // threads block under; waking touches no barrier).
    const Ps release = b.latest_ps + ns_to_ps(sys.params().sm_syncthreads_ns);
    // The whole CTA passed: the engine's closed queue starts over (tma.engine_mva_segments).
    if (expected >= c.live && sys.params().tma_engine_mva_segments != 0) c.ports.tma_mva.new_segment();
    for (CudaThread* w : b.waiters) {
      OrderModel::barrier_leave(w->order, b.carry, release);
      s.wake(*w, release);
    }
    OrderModel::barrier_leave(t.order, b.carry, release);
    c.barriers.erase(id);
    t.local_ps = release;
    t.wait = {};
    return;
  }
  b.waiters.push_back(&t);
  t.wait = {id == 0 ? "waits at __syncthreads" : "waits at a named barrier (bar.sync)", site.file, site.line, 0, 0};
  s.block(t);
}

void mbar_init_fence() {
  CudaThread& t = this_thread();
  use_loads(t);
  this_scheduler().busy(t);
  t.local_ps += ns_to_ps(this_system().params().sm_mbar_init_fence_ns);
}

void next_syncwarp_all() {
  CudaThread* t = g_running.thread;
  if (!t) throw_outside_kernel();
  t->syncwarp_all = true;
}

uint32_t live_lanes() {
  const CudaThread& t = this_thread();
  const Cta& c = *t.cta;
  uint32_t mask = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t i = t.warp * 32 + l;
    if (i < c.threads.size() && !c.threads[i]->finished) mask |= 1u << l;
  }
  return mask;
}

uint64_t warp_op(WarpOp op, uint32_t mask, uint64_t value, uint32_t arg, uint32_t width, Site site) {
  // In a shuffle loop its SASS has unrolled (ptx::unrolled_shuffles), the code between two shuffles
  // of the same operands is iterations that do not wait for each other: the compiler interleaves
  // the compares with the shuffles and issues them back to back (sm.code_indep_insn_ns, as code
  // between two data loads), where a rolled loop's code waits for each shuffle's result
  // (rows shim.dispatch_phases.{,rttopk.}l2data.{128,512}tok.h7168.p3_ns: run-time top-k +118-138 ns
  // a round on the GPU; docs/hw-accuracy.md, thirty-eighth pass (s32-round)).
  const bool shuffle_op = op == WarpOp::ShflIdx || op == WarpOp::ShflUp || op == WarpOp::ShflDown || op == WarpOp::ShflXor;
  if (CudaThread* r = g_running.thread; r && shuffle_op && r->unrolled_shuffles && g_code_insns != 0 &&
                                         r->code_op == kCodeOpShuffle && r->shfl_operand == value)
    charge_code_blocks(*r, true);
  CudaThread& t = this_thread();
  use_loads(t);
  GpuScheduler& s = this_scheduler();
  NvidiaSystem& sys = this_system();
  Cta& c = *t.cta;
  s.busy(t);
  if ((mask & (1u << t.lane)) == 0) warp_trap_lane(site, t.lane, mask);
  if (width == 0 || width > 32 || (width & (width - 1)) != 0) warp_trap_width(site, width);
  WarpSync& w = c.warps[t.warp];
  if (w.arrived == 0) {
    w.expected = mask;
    w.kind = static_cast<int>(op);
    w.arg = arg;
    w.width = width;
    w.latest_ps = 0;
  } else if (w.kind != static_cast<int>(op) || w.expected != mask) {
    warp_trap_disagree(site, t.warp, mask, w.expected);
  }
  if (op == WarpOp::Sync) {
    if (w.arrived == 0) w.carry.clear(), w.all = false, w.stored = 0;
    if (t.bulk_store_since_sync) w.stored |= 1u << t.lane;
    // A WARPSYNC.ALL reconverging a divergent branch (ptx::syncwarp_all, sm.warpsync_all_ns > 0)
    // does not wait for the lane's stores to land: they travel to the other lanes as obligations.
    // Only after the branch that issued a bulk store (mode 23's ops 1 and 5; its ops 2-4 run the
    // same WARPSYNC.ALL with the warp converged).
    const bool all = t.syncwarp_all && t.bulk_store_since_sync && sys.params().sm_warpsync_all_ns > 0;
    t.syncwarp_all = false;
    t.bulk_store_since_sync = false;
    w.all = w.all || all;
    release_into(t, w.carry, !all && sys.params().sm_syncwarp_no_wait == 0);
  }
  t.coll_value = value;
  t.coll_arg = arg;
  if (shuffle_op) t.code_op = kCodeOpShuffle, t.shfl_operand = value;
  w.arrived |= 1u << t.lane;
  w.latest_ps = std::max(w.latest_ps, t.local_ps);
  if ((w.arrived & w.expected) != w.expected) {
    t.wait = {"waits at a warp collective (__syncwarp / shuffle / vote)", site.file, site.line, 0, 0};
    s.block(t);
    return t.coll_result;
  }
  // Last arrival: compute every participant's result.
  auto lane_thread = [&](uint32_t l) -> CudaThread* {
    const uint32_t i = t.warp * 32 + l;
    return i < c.threads.size() ? c.threads[i].get() : nullptr;
  };
  uint32_t votes = 0;
  uint64_t sum = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(w.expected & (1u << l))) continue;
    CudaThread* p = lane_thread(l);
    if (p && p->coll_value) votes |= 1u << l;
    if (p) sum += p->coll_value;
  }
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(w.expected & (1u << l))) continue;
    CudaThread* p = lane_thread(l);
    if (!p) continue;
    const uint32_t seg = l & ~(w.width - 1), pos = l & (w.width - 1);
    // Each lane's own shuffle operand (lanes may ask for different sources).
    const uint32_t a = p->coll_arg;
    uint32_t src = l;
    switch (op) {
      case WarpOp::ShflIdx: src = seg + (a & (w.width - 1)); break;
      case WarpOp::ShflUp: src = pos >= a ? l - a : l; break;
      case WarpOp::ShflDown: src = pos + a < w.width ? l + a : l; break;
      case WarpOp::ShflXor: src = ((l ^ a) & ~(w.width - 1)) == seg ? (l ^ a) : l; break;
      default: break;
    }
    CudaThread* from = lane_thread(src);
    switch (op) {
      case WarpOp::Sync: p->coll_result = 0; break;
      case WarpOp::ShflIdx:
      case WarpOp::ShflUp:
      case WarpOp::ShflDown:
      case WarpOp::ShflXor: p->coll_result = from ? from->coll_value : p->coll_value; break;
      case WarpOp::Ballot: p->coll_result = votes; break;
      case WarpOp::Any: p->coll_result = votes != 0; break;
      case WarpOp::All: p->coll_result = votes == (w.expected & live_lanes()); break;
      case WarpOp::ReduceAdd: p->coll_result = sum; break;
    }
  }
  const auto& prm = sys.params();
  const bool shuffle = op == WarpOp::ShflIdx || op == WarpOp::ShflUp || op == WarpOp::ShflDown || op == WarpOp::ShflXor;
  // A shuffle of the same operands as the warp's last one (dispatch's loop over the lanes' `dst`)
  // does not depend on that one's result: the GPU issues such shuffles back to back (row
  // code.shfl_indep4.w1_ns; intranode_dispatch's SASS, docs/hw-accuracy.md s19-sass), where a
  // chain waits for each result. A chain whose result equals its operand is taken as independent.
  bool same_operands = shuffle && w.shfl_last;
  if (shuffle) {
    for (uint32_t l = 0; l < 32; ++l) {
      if (!(w.expected & (1u << l))) continue;
      if (const CudaThread* p = lane_thread(l)) {
        same_operands = same_operands && w.shfl_values[l] == p->coll_value;
        w.shfl_values[l] = p->coll_value;
      }
    }
    w.shfl_last = true;
  }
  // Lane 0's store branch (some lanes stored since their last sync, not all): the GPU runs the
  // branch divergent and reconverges it here (D2 of session 28: store_chain v1 - v2, 27.9 ns a row).
  const bool diverged = op == WarpOp::Sync && w.stored != 0 && (w.stored & w.expected) != w.expected;
  const double sync_ns = (w.all ? prm.sm_warpsync_all_ns : prm.sm_syncwarp_ns) + (diverged ? prm.sm_diverge_store_ns : 0);
  const Ps release = w.latest_ps + (op == WarpOp::Sync ? issue_ps(t, sync_ns, prm.sm_issue_slot_ns)
                                    : same_operands    ? issue_ps(t, prm.sm_shfl_indep_ns, prm.sm_shfl_slot_ns)
                                    : shuffle          ? issue_ps(t, prm.sm_shfl_ns, prm.sm_shfl_slot_ns)
                                                       : issue_ps(t, prm.sm_vote_ns, prm.sm_vote_slot_ns));
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(w.expected & (1u << l)) || l == t.lane) continue;
    CudaThread* p = lane_thread(l);
    if (!p) continue;
    if (op == WarpOp::Sync) OrderModel::barrier_leave(p->order, w.carry, release);
    s.wake(*p, release);
  }
  if (op == WarpOp::Sync) OrderModel::barrier_leave(t.order, w.carry, release);
  w.arrived = 0;
  t.local_ps = release;
  t.wait = {};
  return t.coll_result;
}

}  // namespace symsim::nv
