// Lightweight user-space coroutines for CUDA threads (Boost.Context fibers). SystemC threads
// cost two memory mappings each and top out near 30 k per process; a 1024-thread CTA on each
// of many GPUs needs far more. Fibers run on stacks carved from large pooled mappings (pages
// touched on use, reused when a fiber ends) and are switched by their GPU's scheduler, which
// is the only code that waits on SystemC time. A fiber never calls sc_core::wait itself.
#pragma once
#include <boost/context/fiber.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "models/core/sanitizers.h"
#include "models/memory/sparse_region.h"

namespace symsim::nv {

// Stacks of one size from mappings of `kStacksPerChunk` stacks each. A stack returned with its
// lowest page touched counts as overflowed (its fiber came within a page of the end); nothing
// else touches that page, so a stack costs only the pages its fiber used.
class StackPool {
 public:
  static constexpr size_t kStacksPerChunk = 256;
  explicit StackPool(size_t stack_bytes);
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc);
  size_t stack_bytes() const { return m_stack_bytes; }
  size_t in_use() const { return m_in_use; }
  size_t peak_in_use() const { return m_peak; }
  uint64_t overflows() const { return m_overflows; }

 private:
  size_t m_stack_bytes;
  std::vector<SparseRegion> m_chunks;
  std::vector<uint8_t*> m_free;  // low ends of free stacks
  size_t m_in_use = 0, m_peak = 0;
  uint64_t m_overflows = 0;
};

class Fiber {
 public:
  Fiber() = default;
  ~Fiber() { destroy(); }
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Prepares `body` to run on a stack from `pool`; it starts at the first resume().
  void start(StackPool& pool, std::function<void()> body);
  // Runs the fiber until it yields or ends (called by the scheduler).
  void resume();
  // Back to the scheduler (called inside the fiber).
  void yield();
  // Where the suspended fiber's stack resumes (its saved stack pointer), or null.
  const void* saved_sp() const {
    // A suspended boost::context::fiber is one pointer: its stack pointer.
    static_assert(sizeof(m_self) == sizeof(void*), "boost::context::fiber is its context pointer");
    const void* sp = nullptr;
    std::memcpy(&sp, static_cast<const void*>(&m_self), sizeof(sp));
    return sp;
  }
  // Starts fetching what resume() touches first at `sp`: the registers saved there, the
  // frames just above them and the lines just below that its next calls write (no effect on
  // what runs).
  static void prefetch_stack(const void* sp);
  bool started() const { return m_started; }
  bool finished() const { return m_started && !m_self; }
  // Unwinds a suspended fiber (its destructors run) and frees its stack; one that never ran
  // returns at once without running its body.
  void destroy();

 private:
  // 40 bytes, what a resumption reads first: the body is kept on the fiber's own stack (in
  // Boost's record at its top), not here, so that a CudaThread's hot fields share its line.
  boost::context::fiber m_self;    // the fiber, while it is suspended
  boost::context::fiber m_caller;  // the scheduler, while the fiber runs
  FiberAsan m_asan;  // its stack switches, for AddressSanitizer (nothing without it)
  bool m_started = false;
  bool m_entered = false;    // it has run
  bool m_cancelled = false;  // destroyed before it ran
};

}  // namespace symsim::nv
