// Narrow hooks through which tracing, statistics, checkers and fault injectors watch the
// models. `Observer` holds the events both platform families emit (QPs, doorbells, WQEs,
// completions, links, kernel blocks, faults); each family adds its own event set in a derived
// interface (models/ascend/ascend_observer.h, models/nvidia/nvidia_observer.h). Model code
// calls `hooks.emit<&Observer::on_x>(...)` (or `&AscendObserver::on_y`); a hook nobody handles
// costs a slot read and an empty loop.
#pragma once
#include <cstdint>
#include <array>
#include <memory>
#include <stdexcept>
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

// Where in the kernel source a shim call was made (neither file nor pc: unknown).
struct SiteRef {
  const char* file = nullptr;
  int line = 0;
  const void* pc = nullptr;  // else: a kernel's return address, symbolised when reported
  bool known() const { return file || pc; }
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
  virtual void on_block_start(int pe, int core, const char* kernel, Ps t) { unhandled(); }
  virtual void on_block_end(int pe, int core, const char* kernel, Ps t) { unhandled(); }
  virtual void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) { unhandled(); }
  // Engine (UDMA engine, NIC) side.
  virtual void on_sq_doorbell(const QpRef&, uint32_t producer_index, Ps t) { unhandled(); }
  virtual void on_cq_doorbell(const QpRef&, uint32_t consumer_index, Ps t) { unhandled(); }
  virtual void on_wqe_executed(const WqeRecord&) { unhandled(); }
  virtual void on_engine_busy(int pe, Ps start, Ps end) { unhandled(); }
  // A doorbell that moved the producer index backwards or past the ring depth.
  virtual void on_doorbell_regression(const QpRef&, uint32_t old_index, uint32_t new_index, Ps t) { unhandled(); }
  // The engine had a CQE to write and the CQ had no free slot.
  virtual void on_cq_overflow(const QpRef&, uint32_t produced, uint32_t consumed, Ps t) { unhandled(); }
  // The QP entered the error state (asynchronous error); later WQEs are flushed.
  virtual void on_qp_error(const QpRef&, const char* why, Ps t) { unhandled(); }
  // Fabric.
  virtual void on_link_busy(int link, Ps start, Ps end, uint64_t bytes) { unhandled(); }
  virtual void on_fault(const FaultEvent&) { unhandled(); }

 protected:
  static void unhandled() { t_hook_unhandled = true; }
};

class Hooks {
 public:
  // Attach before the simulation emits (not from inside a hook): the listener lists restart.
  void attach(Observer* o) {
    m_observers.push_back(o);
    for (Slot& s : m_slots) s = Slot{};
  }
  bool active() const { return !m_observers.empty(); }
  // False once the hook has been emitted and no observer handles it: state a model keeps only to
  // emit that hook (the shim's post cursors, for the trace) may then be skipped. Listeners are
  // attached before the simulation emits, so a hook found unheard stays so for the run.
  template <auto Fn>
  bool may_be_heard() const {
    const Slot& s = m_slots[kHookSlot<Fn>];
    return !s.built || !s.listeners.empty();
  }
  // The fault interceptor the models consult (a no-op one unless faults were injected).
  FaultHooks& faults() const { return m_faults ? *m_faults : no_faults(); }
  bool faults_active() const { return m_faults != nullptr; }
  void set_faults(FaultHooks* f) { m_faults = f; }
  // `emit<&Observer::on_x>(args...)` calls the hook on every observer that handles it, in attach
  // order. The first emission of a hook calls every observer of the hook's interface (Observer,
  // or a family's event set) and keeps those whose own override ran: a hook costs only its
  // listeners, found by the hook's own slot (a constant per hook, no search).
  template <auto Fn, typename... Args>
  void emit(const Args&... args) const {
    using Listener = typename HookClass<decltype(Fn)>::type;
    const Slot& s = m_slots[kHookSlot<Fn>];
    if (__builtin_expect(!s.built, 0)) return first_emit<Fn>(args...);
    // Up to two listeners (the statistics and the checkers' hub on a checked run), each called
    // from its own call site: a loop's one indirect call alternated between two targets, and
    // a predictor that keeps one target per call site mispredicted both calls of every
    // emission (s34-miss: +4.0 indirect mispredictions a WQE with the checkers on).
    void* const* l = s.listeners.data();
    const size_t n = s.listeners.size();
    if (n == 1) {
      (static_cast<Listener*>(l[0])->*Fn)(args...);
    } else if (n == 2) {
      (static_cast<Listener*>(l[0])->*Fn)(args...);
      (static_cast<Listener*>(l[1])->*Fn)(args...);
    } else {
      for (size_t i = 0; i < n; ++i) (static_cast<Listener*>(l[i])->*Fn)(args...);
    }
  }

 private:
  // A hook's first emission (out of line: the callers' inline part stays the dispatch above).
  template <auto Fn, typename... Args>
  [[gnu::noinline, gnu::cold]] void first_emit(const Args&... args) const {
    using Listener = typename HookClass<decltype(Fn)>::type;
    const size_t slot = kHookSlot<Fn>;
    // A hook emitted from inside an observer (this may be such an emission) must leave the
    // outer emission's flag as it found it.
    const bool outer_flag = t_hook_unhandled;
    const std::vector<Observer*> all = m_observers;
    std::vector<void*> listeners;
    for (Observer* o : all) {
      Listener* l = dynamic_cast<Listener*>(o);  // once per hook: an observer of another family is skipped
      if (!l) continue;
      t_hook_unhandled = false;
      (l->*Fn)(args...);
      if (!t_hook_unhandled) listeners.push_back(l);
    }
    m_slots[slot].listeners = std::move(listeners);
    m_slots[slot].built = true;
    t_hook_unhandled = outer_flag;
  }

  // The interface a hook belongs to: Observer, AscendObserver, NvidiaObserver.
  template <typename Fn>
  struct HookClass;
  template <typename C, typename... A>
  struct HookClass<void (C::*)(A...)> {
    using type = C;
  };
  // Listeners kept as the interface's pointer, stored untyped: the hook's slot knows its type.
  struct Slot {
    bool built = false;
    std::vector<void*> listeners;
  };
  // Every hook of every interface (about 35 today) gets a slot number before main;
  // the slots are a fixed array so that an emission nested in a first emission moves nothing.
  static constexpr size_t kMaxHooks = 128;
  static size_t next_slot() {
    static size_t n = 0;
    if (n == kMaxHooks) throw std::logic_error("symsim::Hooks: more than kMaxHooks hooks");
    return n++;
  }
  // Numbered before main (dynamic initialisation of each hook's variable), not on first use: a
  // function-local static cost a guard test per emission, about 20 per WQE.
  template <auto Fn>
  static inline const size_t kHookSlot = next_slot();

  std::vector<Observer*> m_observers;
  mutable std::array<Slot, kMaxHooks> m_slots;
  FaultHooks* m_faults = nullptr;
};

}  // namespace symsim
