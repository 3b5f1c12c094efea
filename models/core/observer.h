// Narrow hooks through which tracing, statistics, checkers and fault injectors watch the
// models. Model code calls `hooks.emit(&Observer::on_x, ...)`; with no observer attached
// that is one empty-vector test.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core/fault_hooks.h"
#include "models/core/time.h"

namespace symsim {

// Identifies a QP: the PE that owns it, the peer slot it reaches, and its index in the slot.
struct QpRef {
  int pe = 0;
  int slot = 0;
  int qp = 0;
};

// Everything the engine did for one WQE, with the times of each step.
struct WqeRecord {
  QpRef qp;
  uint32_t wqe_index = 0;  // monotonic WQEBB index of the WQE's first block
  uint8_t opcode = 0;
  uint8_t flags = 0;
  uint32_t bytes = 0;
  int target_pe = -1;
  int via_pe = -1;          // relay PE whose port the request crossed (-1: direct path)
  uint64_t remote_va = 0;
  uint64_t local_va = 0;
  Ps doorbell_ps = 0;
  Ps fetch_ps = 0;          // WQE bytes read from the ring
  Ps wire_ps = 0;           // head enters the fabric
  Ps first_write_ps = 0;    // WRITE: first unit visible at the target (and read from the source)
  Ps unit_interval_ps = 0;  // WRITE: between units
  Ps remote_write_ps = 0;   // last byte visible at the target
  Ps complete_ps = 0;       // completion known to the engine (ACK / read data landed)
  Ps cqe_ps = 0;            // CQE visible in the CQ ring (0 when none was asked for)
  uint32_t cqe_index = 0;   // monotonic CQ position when a CQE was written
  uint8_t status = 0;
  uint8_t substatus = 0;
};

// A hazard a model found itself (NVIDIA side: `flag_before_data` from the memory-ordering
// model, `sq_overrun` / `torn_wqe` at a NIC's WQE fetch); `id` is a catalog hazard id.
struct ModelHazard {
  const char* id = "";
  int pe = -1;
  int qp = -1;
  int slot = -1;
  int64_t wqe = -1;
  uint64_t addr = 0;
  Ps time_ps = 0;
  std::string detail;
  bool observed = true;  // false: allowed by the ordering rules, hidden by this run's timing
};

// Where in the kernel source a shim call was made (neither file nor pc: unknown).
struct SiteRef {
  const char* file = nullptr;
  int line = 0;
  const void* pc = nullptr;  // else: a kernel's return address, symbolised when reported
  bool known() const { return file || pc; }
};

// A WQE a kernel posted through the SHMEM device API, with the call that posted it.
struct PostRecord {
  QpRef qp;
  uint32_t wqe_index = 0;  // monotonic WQEBB index of its first block
  uint32_t bb = 1;
  uint8_t opcode = 0;
  uint8_t flags = 0;
  int core = -1;
  uint64_t local_va = 0;
  uint64_t remote_va = 0;  // translated to the target PE
  uint64_t bytes = 0;
  Ps t = 0;
  SiteRef site;
};

// One contiguous copy on an AIV pipe (DataCopy, DataCopyPad, WQE staging): `src` is read at
// issue, `dst` holds the bytes from `visible_ps` on.
struct CopyRecord {
  int pe = -1;
  int core = -1;
  int pipe = 0;              // AivPipe
  uint8_t* dst = nullptr;
  const uint8_t* src = nullptr;
  uint64_t bytes = 0;          // read at src (and written at dst unless dst_bytes says otherwise)
  uint64_t dst_bytes = 0;      // written at dst when it differs from bytes (vector instructions); 0: bytes
  bool byte_granular = false;  // DataCopyPad / shim-internal: no 32 B length rule
  bool atomic_add = false;     // SetAtomicAdd: adds into dst (concurrent adds do not race)
  Ps issue_ps = 0;
  Ps visible_ps = 0;
  SiteRef site;
};

// A direct write to device memory, outside the copy pipes and the visibility queue: scalar
// stores written back by dcci, st_dev, SIMT atomics, host copies and memsets.
struct StoreRecord {
  int pe = -1;     // whose memory
  int core = -1;   // -1: the PE's host program
  const uint8_t* dst = nullptr;
  uint64_t bytes = 0;
  Ps t = 0;        // when the bytes changed (the writer's time)
  const char* what = "";  // "scalar store (dcci)", "st_dev", "host copy", ...
  SiteRef site;
};

// SetFlag / WaitFlag / PipeBarrier on an AIV core (pipes as AivPipe values).
struct PipeSyncRecord {
  enum Kind { kSetFlag, kWaitFlag, kBarrier };
  int pe = -1;
  int core = -1;
  Kind kind = kSetFlag;
  int src_pipe = 0;
  int dst_pipe = 0;  // kBarrier: the pipe barred (4: all)
  int event_id = 0;
  bool matched = true;  // kWaitFlag: a SetFlag was pending
  Ps t = 0;
  SiteRef site;
};

// Something an injected fault did (trace, checkers). For a torn unit, [addr, addr+bytes) is
// the unit, visible at `t` except [late_addr, late_addr+late_bytes), visible at `late_ps`.
struct FaultEvent {
  const char* kind = "";
  QpRef qp;
  int target_pe = -1;
  int64_t wqe = -1;
  const uint8_t* addr = nullptr;
  uint64_t bytes = 0;
  const uint8_t* late_addr = nullptr;
  uint64_t late_bytes = 0;
  Ps t = 0;
  Ps late_ps = 0;
  std::string detail;
};

// Set by an Observer's default (empty) hook: the observer does not handle the hook just emitted,
// and Hooks stops calling it for that hook.
inline thread_local bool t_hook_unhandled = false;

class Observer {
 public:
  virtual ~Observer() = default;
  // Kernel side (shim).
  virtual void on_wqe_posted(const QpRef&, uint32_t wqe_index, uint8_t opcode, int core, Ps t) { unhandled(); }
  virtual void on_cqe_reaped(const QpRef&, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) { unhandled(); }
  virtual void on_core_span(int pe, int core, const char* what, Ps start, Ps end) { unhandled(); }
  // Engine side.
  virtual void on_sq_doorbell(const QpRef&, uint32_t producer_index, Ps t) { unhandled(); }
  virtual void on_cq_doorbell(const QpRef&, uint32_t consumer_index, Ps t) { unhandled(); }
  virtual void on_wqe_executed(const WqeRecord&) { unhandled(); }
  virtual void on_engine_busy(int pe, Ps start, Ps end) { unhandled(); }
  // A doorbell that moved the producer index backwards or past the ring depth.
  virtual void on_doorbell_regression(const QpRef&, uint32_t old_index, uint32_t new_index, Ps t) { unhandled(); }
  // The engine had a CQE to write and the CQ had no free slot.
  virtual void on_cq_overflow(const QpRef&, uint32_t produced, uint32_t consumed, Ps t) { unhandled(); }
  // Fabric.
  virtual void on_link_busy(int link, Ps start, Ps end, uint64_t bytes) { unhandled(); }
  // Hazards the models detect themselves.
  virtual void on_model_hazard(const ModelHazard&) { unhandled(); }
  // Kernel side, for checkers (the shim emits these with the kernel's call site).
  virtual void on_wqe_post(const PostRecord&) { unhandled(); }
  virtual void on_doorbell_store(const QpRef&, bool cq, uint32_t value, int core, Ps t, SiteRef site) { unhandled(); }
  virtual void on_copy(const CopyRecord&) { unhandled(); }
  virtual void on_gm_store(const StoreRecord&) { unhandled(); }
  // dcci / ld_dev / a GM read: the core sees [addr, addr+bytes) as it is at `t`.
  virtual void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) { unhandled(); }
  virtual void on_pipe_sync(const PipeSyncRecord&) { unhandled(); }
  // The core's Unified Buffer [ub, ub+ub_bytes) has [ub, ub+allocated) allocated (TPipe).
  virtual void on_ub_layout(int pe, int core, const uint8_t* ub, uint64_t allocated, uint64_t ub_bytes) { unhandled(); }
  // Device memory handed out: aclshmem_malloc (symmetric), aclrtMalloc, SHMEM tables.
  virtual void on_alloc(int pe, const char* kind, const uint8_t* p, uint64_t bytes) { unhandled(); }
  virtual void on_block_start(int pe, int core, const char* kernel, Ps t) { unhandled(); }
  virtual void on_block_end(int pe, int core, const char* kernel, Ps t) { unhandled(); }
  virtual void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) { unhandled(); }
  // Every block of every PE passed aclshmemx_barrier_all_vec; they leave at `t`.
  virtual void on_device_barrier(Ps t) { unhandled(); }
  // Engine side, for checkers.
  // The engine read the WQE at `wqe_index` from its ring slot at `t` (before executing it).
  virtual void on_wqe_fetched(const QpRef&, uint32_t wqe_index, const uint8_t* slot, uint32_t bytes, Ps t) { unhandled(); }
  // A doorbell published a producer index more than a ring ahead of what the engine consumed.
  virtual void on_sq_overrun(const QpRef&, uint32_t producer_index, uint32_t consumed, uint32_t depth, Ps t) { unhandled(); }
  // The QP entered the error state (asynchronous error); later WQEs are flushed.
  virtual void on_qp_error(const QpRef&, const char* why, Ps t) { unhandled(); }
  virtual void on_fault(const FaultEvent&) { unhandled(); }

 protected:
  static void unhandled() { t_hook_unhandled = true; }
};

class Hooks {
 public:
  // Attach before the simulation emits (not from inside a hook): the listener lists restart.
  void attach(Observer* o) {
    m_observers.push_back(o);
    m_lists.clear();
  }
  bool active() const { return !m_observers.empty(); }
  // The fault interceptor the models consult (a no-op one unless faults were injected).
  FaultHooks& faults() const { return m_faults ? *m_faults : no_faults(); }
  bool faults_active() const { return m_faults != nullptr; }
  void set_faults(FaultHooks* f) { m_faults = f; }
  // Calls `fn` on every observer that handles it, in attach order. The first emission of a hook
  // calls every observer and keeps those whose own override ran: a hook costs only its listeners.
  template <typename Fn, typename... Args>
  void emit(Fn fn, const Args&... args) const {
    HookList<Fn>& hook = list_for(fn);
    if (hook.built) {
      for (Observer* o : hook.listeners) (o->*fn)(args...);
      return;
    }
    // A hook emitted from inside an observer (this may be such an emission) must leave the
    // outer emission's flag as it found it.
    const bool outer_flag = t_hook_unhandled;
    const std::vector<Observer*> all = m_observers;
    std::vector<Observer*> listeners;
    for (Observer* o : all) {
      t_hook_unhandled = false;
      (o->*fn)(args...);
      if (!t_hook_unhandled) listeners.push_back(o);
    }
    hook.listeners = std::move(listeners);
    hook.built = true;
    t_hook_unhandled = outer_flag;
  }

 private:
  struct ListBase {
    virtual ~ListBase() = default;
  };
  template <typename Fn>
  struct HookList : ListBase {
    Fn fn;
    bool built = false;
    std::vector<Observer*> listeners;
  };
  // Hooks of one signature share a type; each type gets an index into m_lists, and the few hooks
  // of a type are told apart by comparing member pointers. Entries stay put once made.
  static size_t next_type_index() {
    static size_t n = 0;
    return n++;
  }
  template <typename Fn>
  static size_t type_index() {
    static const size_t i = next_type_index();
    return i;
  }
  template <typename Fn>
  HookList<Fn>& list_for(Fn fn) const {
    const size_t t = type_index<Fn>();
    if (t >= m_lists.size()) m_lists.resize(t + 1);
    for (const auto& l : m_lists[t]) {
      auto* h = static_cast<HookList<Fn>*>(l.get());
      if (h->fn == fn) return *h;
    }
    auto h = std::make_unique<HookList<Fn>>();
    h->fn = fn;
    HookList<Fn>& ref = *h;
    m_lists[t].push_back(std::move(h));
    return ref;
  }

  std::vector<Observer*> m_observers;
  mutable std::vector<std::vector<std::unique_ptr<ListBase>>> m_lists;  // by hook type
  FaultHooks* m_faults = nullptr;
};

}  // namespace symsim
