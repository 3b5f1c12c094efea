// One AIV (vector) core: the scalar pipe that runs kernel code, and the MTE2/MTE3/vector pipes
// whose copies and vector instructions complete asynchronously. A copy's destination bytes become visible when the
// copy completes (through the visibility queue) or when the kernel waits for it
// (WaitFlag / PipeBarrier), whichever comes first. The core keeps its own local time ahead of
// SystemC time (temporal decoupling through a TLM quantum keeper, models/tlm/core_quantum_keeper.h)
// and syncs where ordering matters or once a quantum ahead.
#pragma once
#include <systemc>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "models/core/exec_context.h"
#include "models/ascend/ascend_observer.h"
#include "models/core/time.h"
#include "models/memory/visibility_queue.h"
#include "models/platform/ascend_params.h"
#include "models/tlm/core_quantum_keeper.h"

namespace symsim {

class Fabric;

enum class AivPipe : int { kScalar = 0, kVector = 1, kMte2 = 2, kMte3 = 3, kAll = 4 };
constexpr int kAivPipes = 4;
constexpr int kAivEventIds = 16;

class AivCore {
 public:
  AivCore(int pe, int core, const AscendParams& params, VisibilityQueue& visibility, Hooks& hooks);

  int pe() const { return m_pe; }
  int core() const { return m_core; }
  Ps local_ps() const { return m_local_ps; }
  ExecContext& context() { return m_ctx; }

  // A device store's issue (st_dev, a doorbell) and a cache line's clean + invalidate (dcci), in
  // ps once: the shim charges one of each about once a WQE.
  Ps st_dev_ps() const { return m_st_dev_ps; }
  Ps dcci_ps() const { return m_dcci_ps; }
  // Scalar work of `ops` shim operations.
  void scalar_ops(double ops) { advance(static_cast<Ps>(ops * m_scalar_op_ps)); }
  // The same for a whole count: up to kCountedOps from a table made with the double product above
  // (a WQE's post counts 1, 2, 4 or 8 operations about nine times: each a multiply and a conversion).
  void scalar_ops(int ops) {
    advance(static_cast<unsigned>(ops) <= kCountedOps ? m_ops_ps[ops] : static_cast<Ps>(ops * m_scalar_op_ps));
  }
  // Moves local time forward; syncs once past the quantum. Inline: the shim advances a core
  // about nine times per WQE. The keeper's need_sync rule in picoseconds: building an sc_time
  // (a library call) on every operation cost 5% of the put benchmark; sync() hands the local
  // time to the keeper.
  void advance(Ps d) {
    if (m_hooks.faults_active()) d = slowed(d);
    m_local_ps += d;
    if (m_local_ps - systemc_ps() > m_keeper.quantum().value()) sync();
  }
  // Lets SystemC time catch up with local time (others run meanwhile); memory is then settled
  // to it.
  void sync();
  // Blocks on `ev`; local time becomes the wake-up time (or stays if later).
  void wait(sc_core::sc_event& ev);
  // Local time jumps to at least `t` and syncs.
  void wait_until(Ps t);
  // Memory written by others up to local time becomes observable (dcci, ld_dev, GM reads).
  void observe();
  // The core is about to store `bytes` at `dst` in GM directly, at its local time: a put
  // still to read them before then reads them first.
  void before_store(const uint8_t* dst, uint64_t bytes);

  // An asynchronous copy on `pipe`; returns its completion time. Inline (below), as land():
  // a WQE staged through UB is one MTE3 copy.
  Ps copy(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes);
  // An MTE3 copy into a queue ring that only a device reads, after a doorbell the core rings
  // later (a WQE into its SQ, followed by the wait for the copy): the bytes are written now, as
  // that wait would have forced them, and no entry waits in the visibility queue.
  Ps copy_to_ring(uint8_t* dst, const uint8_t* src, uint64_t bytes);
  // A copy whose GM side is another PE's HBM (`peer_pe`), across `fabric`: on MTE3 the bytes
  // go out to the peer and become visible as they arrive, and the pipe is busy until the peer's
  // response is back; on MTE2 the request crosses, the data comes back and is in UB then. The core
  // issues it once the pipe is free (the fabric serves messages in simulated-time order), and
  // a wait for the MTE3 pipe (WaitFlag, PipeBarrier) resumes once its stores have landed.
  Ps copy_across(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes, Fabric& fabric, int peer_pe);
  // An MTE3 copy in the atomic-add mode (AscendC::SetAtomicAdd): timed as copy / copy_across
  // (`fabric` null: this PE's HBM); the UB bytes are taken at issue, and when the copy completes
  // `combine(dst, taken, bytes)` adds them into GM instead of overwriting it.
  using Combine = std::function<void(uint8_t* dst, const uint8_t* src, uint64_t bytes)>;
  Ps copy_combine(uint8_t* dst, const uint8_t* src, uint64_t bytes, Fabric* fabric, int peer_pe, Combine combine);
  // An operation that occupies `pipe` for `duration` (a vector instruction or a copy: it starts
  // when the pipe is free and any WaitFlag has released it); returns its completion time. Inline.
  Ps occupy(AivPipe pipe, Ps duration);
  // Inline (below): a WQE staged through UB makes two flag pairs with constant pipes.
  void set_flag(AivPipe src, AivPipe dst, int id);
  // Returns false when no matching SetFlag is pending (the hardware would hang).
  bool wait_flag(AivPipe src, AivPipe dst, int id);
  void pipe_barrier(AivPipe pipe);
  // Completion time of everything issued so far on `pipe`.
  Ps pipe_free_ps(AivPipe pipe) const { return m_pipes[static_cast<int>(pipe)].free_ps; }

  static AivCore* current() { return current_exec() ? current_exec()->core : nullptr; }
  void make_current() { current_exec() = &m_ctx; }

 private:
  struct PendingWrite {
    VisibilityQueue::Handle handle;
    uint32_t generation;
  };
  struct Pipe {
    Ps free_ps = 0;  // last issued op completes
    Ps gate_ps = 0;  // later ops may not start before (WaitFlag on this pipe)
    std::vector<PendingWrite> pending;
    VisibilityQueue::Lane lane = VisibilityQueue::kNoLane;  // its copies complete in order
    Ps remote_due_ps = 0;  // the last store into a peer's HBM (copy_across) not yet waited for completes
  };
  struct Event {
    bool set = false;
    Ps t = 0;
    std::vector<PendingWrite> pending;
    Ps remote_due_ps = 0;
  };

  // SystemC time as sim_now.h reads it (not included here: the checkers declare their own
  // sim_now_ps, and this header reaches them).
  static Ps systemc_ps() { return static_cast<Ps>(sc_core::sc_get_curr_simcontext()->time_stamp().value()); }
  // `d` stretched by a straggler fault.
  Ps slowed(Ps d) const;
  // `d` stretched by a straggler fault, for work starting at `start`.
  Ps slowed_from(Ps d, Ps start) const;
  // Forgets the pipe's pending writes that the queue has already applied.
  void drop_applied(Pipe& p);
  // Waits (local time and SystemC) until the pipe's stores into peers' HBM have landed.
  void await_remote(Pipe& p);
  void force(std::vector<PendingWrite>& writes);
  // set_flag on a pipe other than the scalar one: its pending writes and remote stores go with `ev`.
  void hand_over(Pipe& p, Event& ev);
  // wait_flag's part for an event with writes: the remote stores land, the copies' bytes are forced.
  void await_event(Event& ev);
  // How long an MTE copy of `bytes` keeps its pipe busy.
  Ps copy_ps(uint64_t bytes) const;
  // The bytes of a copy on `pipe`: in UB now (MTE2), else visible at `visible_ps` (returned).
  Ps land(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps visible_ps);
  Event& event(AivPipe src, AivPipe dst, int id) {
    return m_events[static_cast<int>(src)][static_cast<int>(dst)][static_cast<unsigned>(id) % kAivEventIds];
  }

  int m_pe;
  int m_core;
  const AscendParams& m_params;
  VisibilityQueue& m_visibility;
  Hooks& m_hooks;
  ExecContext m_ctx;
  Ps m_local_ps = 0;  // SystemC time + the keeper's local time, read by every operation
  CoreQuantumKeeper m_keeper;
  double m_scalar_op_ps;
  static constexpr unsigned kCountedOps = 16;
  std::array<Ps, kCountedOps + 1> m_ops_ps{};  // [n]: static_cast<Ps>(n * m_scalar_op_ps)
  Ps m_mte_latency_ps;
  Ps m_st_dev_ps;
  Ps m_dcci_ps;
  // A copy's transfer time (a put's WQE copies are all one size: no division a copy).
  mutable TransferTime m_copy_transfer;
  std::array<Pipe, kAivPipes> m_pipes{};
  std::array<std::array<std::array<Event, kAivEventIds>, kAivPipes>, kAivPipes> m_events{};
};

inline Ps AivCore::occupy(AivPipe pipe, Ps duration) {
  Pipe& p = m_pipes[static_cast<int>(pipe)];
  const Ps start = std::max({m_local_ps, p.free_ps, p.gate_ps});
  if (m_hooks.faults_active())  // a straggler fault slows vector work as it slows copies
    duration = slowed_from(duration, start);
  p.free_ps = start + duration;
  scalar_ops(1);
  return p.free_ps;
}

inline Ps AivCore::copy_ps(uint64_t bytes) const {
  return m_mte_latency_ps + m_copy_transfer.of(bytes, m_params.aiv_mte_gbytes_per_s);
}

inline Ps AivCore::copy(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  return land(pipe, dst, src, bytes, occupy(pipe, copy_ps(bytes)));
}

inline Ps AivCore::copy_to_ring(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  const Ps done_ps = occupy(AivPipe::kMte3, copy_ps(bytes));
  m_visibility.write_now(dst, src, bytes, done_ps);
  return done_ps;
}

inline Ps AivCore::land(AivPipe pipe, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps visible_ps) {
  Pipe& p = m_pipes[static_cast<int>(pipe)];
  if (pipe == AivPipe::kMte2) {
    // GM -> UB: GM is read at issue and the core's own UB is seen by no one else, so the bytes
    // land now (a kernel that reads them before its WaitFlag is pipe_sync_missing's business).
    std::memcpy(dst, src, bytes);
    return visible_ps;
  }
  // UB -> GM (and vector copies): the bytes become visible when the copy completes, read from
  // the source then (a kernel rewrites its UB only once it has waited for the copy).
  const auto h = m_visibility.schedule_dma(visible_ps, 0, 0, dst, src, bytes, p.lane);
  if (p.pending.size() >= 64) drop_applied(p);
  p.pending.push_back({h, m_visibility.generation(h)});
  return visible_ps;
}

inline void AivCore::set_flag(AivPipe src, AivPipe dst, int id) {
  Event& ev = event(src, dst, id);
  ev.set = true;
  if (src == AivPipe::kScalar) {
    ev.t = m_local_ps;
  } else {
    Pipe& p = m_pipes[static_cast<int>(src)];
    ev.t = p.free_ps;
    if (!p.pending.empty() || p.remote_due_ps > 0) hand_over(p, ev);  // none after a WQE's copy_to_ring
  }
  scalar_ops(1);
}

inline bool AivCore::wait_flag(AivPipe src, AivPipe dst, int id) {
  Event& ev = event(src, dst, id);
  scalar_ops(1);
  if (!ev.set) return false;
  ev.set = false;
  if (dst == AivPipe::kScalar) {
    m_local_ps = std::max(m_local_ps, ev.t);
  } else {
    Pipe& p = m_pipes[static_cast<int>(dst)];
    p.gate_ps = std::max(p.gate_ps, ev.t);
  }
  // The waiting pipe's next operations run after the copies; in this model they read memory
  // when issued, so the copies' bytes must be in place now. Stores into a peer's HBM land when
  // they arrive there: the core resumes then, so no one sees them earlier.
  if (ev.remote_due_ps > 0 || !ev.pending.empty()) await_event(ev);
  return true;
}

}  // namespace symsim
