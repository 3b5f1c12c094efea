#include "models/ascend/aiv_core.h"
#include "models/core/sim_now.h"

#include "models/fabric/fabric.h"

#include <algorithm>
#include <cstring>

namespace symsim {

namespace {
Ps now_ps() { return sim_now_ps(); }
}  // namespace

AivCore::AivCore(int pe, int core, const AscendParams& params, VisibilityQueue& visibility, Hooks& hooks)
    : m_pe(pe),
      m_core(core),
      m_params(params),
      m_visibility(visibility),
      m_hooks(hooks),
      m_keeper(sc_core::sc_time::from_value(ns_to_ps(params.sim_quantum_ns))),
      m_scalar_op_ps(params.aiv_scalar_op_ns * 1000.0),
      m_mte_latency_ps(ns_to_ps(params.aiv_mte_latency_ns)),
      m_st_dev_ps(ns_to_ps(params.aiv_st_dev_ns)),
      m_dcci_ps(ns_to_ps(params.aiv_dcci_ns)) {
  for (unsigned n = 0; n <= kCountedOps; ++n) m_ops_ps[n] = static_cast<Ps>(static_cast<double>(n) * m_scalar_op_ps);
  m_ctx.pe = pe;
  m_ctx.core = this;
  m_local_ps = now_ps();
  for (Pipe& p : m_pipes) p.lane = visibility.make_lane();
}

Ps AivCore::slowed(Ps d) const {  // a straggler fault slows this core's work
  return static_cast<Ps>(static_cast<double>(d) * m_hooks.faults().core_slowdown(m_pe, m_core, m_local_ps));
}

void AivCore::sync() {
  const Ps now = now_ps();
  // The keeper's sync() and reset() less the next sync point that reset() computes on every sync
  // (a call into the library for the time): CoreQuantumKeeper::need_sync does not read it.
  if (m_local_ps > now) {
    m_keeper.set(sc_core::sc_time::from_value(m_local_ps - now));
    sc_core::wait(m_keeper.get_local_time());  // SystemC time is then m_local_ps
    make_current();
  } else {
    m_local_ps = now;
  }
  m_keeper.set(sc_core::SC_ZERO_TIME);
  // Kernel code runs on from here and may store to GM directly: whatever read those bytes up
  // to now (an engine streaming a put's source) has read them first.
  m_visibility.settle(m_local_ps);
}

void AivCore::wait(sc_core::sc_event& ev) {
  sync();
  sc_core::wait(ev);
  make_current();
  m_local_ps = std::max(m_local_ps, now_ps());
}

void AivCore::wait_until(Ps t) {
  m_local_ps = std::max(m_local_ps, t);
  sync();
}

void AivCore::observe() { sync(); }

void AivCore::before_store(const uint8_t* dst, uint64_t bytes) {
  m_visibility.settle(now_ps());  // due before now: happened, in order
  m_visibility.before_write(dst, bytes, m_local_ps);
}

Ps AivCore::slowed_from(Ps d, Ps start) const {
  return static_cast<Ps>(static_cast<double>(d) * m_hooks.faults().core_slowdown(m_pe, m_core, start));
}

Ps AivCore::copy_across(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes, Fabric& fabric, int peer_pe) {
  Pipe& p = m_pipes[static_cast<int>(pipe)];
  // The fabric's links serve messages in the order they are sent: the core waits until the
  // pipe takes the copy, so that every core offers its messages in simulated-time order.
  wait_until(std::max({m_local_ps, p.free_ps, p.gate_ps}));
  const Ps start = m_local_ps;
  const Ps issued = start + m_mte_latency_ps;
  const Ps engine_done = issued + transfer_ps(bytes, m_params.aiv_mte_gbytes_per_s);
  if (pipe == AivPipe::kMte2) {  // a read: the request reaches the peer, the data comes back
    const Ps arrived =
        fabric.send(peer_pe, m_pe, bytes, issued + fabric.control_latency_ps(m_pe, peer_pe)).last_unit_ps;
    p.free_ps = std::max(engine_done, arrived);
    scalar_ops(1);
    return land(pipe, dst, src, bytes, p.free_ps);
  }
  // A write: the bytes land at the peer as they arrive; the copy completes for the core when
  // the peer's response is back (UB writes are acknowledged; calibration.md Table 1 times a
  // 512 B write at the issuer: 1.3 us intra-node).
  const Ps arrived = fabric.send(m_pe, peer_pe, bytes, issued).last_unit_ps;
  p.free_ps = std::max(engine_done, arrived + fabric.control_latency_ps(peer_pe, m_pe));
  p.remote_due_ps = std::max(p.remote_due_ps, p.free_ps);
  scalar_ops(1);
  return land(pipe, dst, src, bytes, arrived);
}

Ps AivCore::copy_combine(uint8_t* dst, const uint8_t* src, uint64_t bytes, Fabric* fabric, int peer_pe,
                         Combine combine) {
  Pipe& p = m_pipes[static_cast<int>(AivPipe::kMte3)];
  // As copy_across: a copy into a peer's HBM is offered to the fabric in simulated-time order,
  // lands as it arrives and completes for the core when the peer's response is back.
  if (fabric) wait_until(std::max({m_local_ps, p.free_ps, p.gate_ps}));
  const Ps start = std::max({m_local_ps, p.free_ps, p.gate_ps});
  const Ps issued = start + m_mte_latency_ps;
  p.free_ps = issued + transfer_ps(bytes, m_params.aiv_mte_gbytes_per_s);
  Ps lands = p.free_ps;
  if (fabric) {
    lands = fabric->send(m_pe, peer_pe, bytes, issued).last_unit_ps;
    p.free_ps = std::max(p.free_ps, lands + fabric->control_latency_ps(peer_pe, m_pe));
    p.remote_due_ps = std::max(p.remote_due_ps, p.free_ps);
  }
  scalar_ops(1);
  // The engine takes the UB bytes as it issues (the core's next scalar store to them does not
  // reach this add) and adds them into GM when they land.
  const auto h = m_visibility.schedule_action(
      lands,
      [dst, taken = std::vector<uint8_t>(src, src + bytes), combine = std::move(combine)](Ps) {
        combine(dst, taken.data(), taken.size());
      },
      dst, bytes);
  p.pending.push_back({h, m_visibility.generation(h)});
  return p.free_ps;
}

void AivCore::drop_applied(Pipe& p) {
  p.pending.erase(std::remove_if(p.pending.begin(), p.pending.end(),
                                 [&](const PendingWrite& w) { return !m_visibility.pending(w.handle, w.generation); }),
                  p.pending.end());
}

void AivCore::await_remote(Pipe& p) {
  if (p.remote_due_ps == 0) return;
  wait_until(p.remote_due_ps);
  p.remote_due_ps = 0;
}

void AivCore::force(std::vector<PendingWrite>& writes) {
  for (const PendingWrite& w : writes)
    if (m_visibility.pending(w.handle, w.generation)) m_visibility.force(w.handle);
  writes.clear();
}

void AivCore::hand_over(Pipe& p, Event& ev) {
  // The pipe's pending writes move to the event; usually it has none yet (its last wait
  // emptied it), and a swap of the buffers costs less than a copy.
  if (ev.pending.empty())
    ev.pending.swap(p.pending);
  else
    ev.pending.insert(ev.pending.end(), p.pending.begin(), p.pending.end());
  p.pending.clear();
  ev.remote_due_ps = std::max(ev.remote_due_ps, p.remote_due_ps);
  p.remote_due_ps = 0;
}

void AivCore::await_event(Event& ev) {
  if (ev.remote_due_ps > 0) {
    wait_until(ev.remote_due_ps);
    ev.remote_due_ps = 0;
  }
  force(ev.pending);
}

void AivCore::pipe_barrier(AivPipe pipe) {
  if (pipe == AivPipe::kAll) {
    for (Pipe& p : m_pipes) {
      m_local_ps = std::max(m_local_ps, p.free_ps);
      await_remote(p);
      force(p.pending);
    }
  } else {
    Pipe& p = m_pipes[static_cast<int>(pipe)];
    p.gate_ps = std::max(p.gate_ps, p.free_ps);
    await_remote(p);
    force(p.pending);
  }
  scalar_ops(1);
}

}  // namespace symsim
