#include "models/nvidia/fiber.h"

#include <sys/mman.h>

#include <cstring>
#include <stdexcept>

namespace symsim::nv {

namespace {
constexpr size_t kPageBytes = 4096;
// Stack bytes above a suspended fiber's stack pointer that its resumption touches at once
// (saved registers, then the frames of the yield and the device call that yielded).
constexpr int kPrefetchLines = 16;
// Stack bytes below it that the thread's next calls write (its frames of the last resumption).
constexpr int kPrefetchLinesBelow = 4;

// Boost.Context's StackAllocator concept over a StackPool.
struct PooledStack {
  StackPool* pool;
  FiberAsan* asan;
  boost::context::stack_context allocate() {
    boost::context::stack_context sc = pool->allocate();
    asan->set_stack(sc.sp, sc.size);
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) { pool->deallocate(sc); }
};
}  // namespace

StackPool::StackPool(size_t stack_bytes) : m_stack_bytes((stack_bytes + 4095) / 4096 * 4096) {}

boost::context::stack_context StackPool::allocate() {
  if (m_free.empty()) {
    m_chunks.emplace_back(m_stack_bytes * kStacksPerChunk, true, "fiber stacks");
    uint8_t* b = m_chunks.back().base();
    for (size_t i = kStacksPerChunk; i-- > 0;) m_free.push_back(b + i * m_stack_bytes);
  }
  uint8_t* low = m_free.back();
  m_free.pop_back();
  m_peak = std::max(m_peak, ++m_in_use);
  boost::context::stack_context sc;
  sc.size = m_stack_bytes;
  sc.sp = low + m_stack_bytes;  // stacks grow down
  return sc;
}

void StackPool::deallocate(boost::context::stack_context& sc) {
  uint8_t* low = static_cast<uint8_t*>(sc.sp) - sc.size;
  // Nothing touches a stack's lowest page but a fiber that (nearly) overflowed it: a canary
  // written there would cost a page per stack (half of the stacks' memory).
  unsigned char resident = 0;
  if (mincore(low, kPageBytes, &resident) == 0 && (resident & 1)) {
    ++m_overflows;
    madvise(low, kPageBytes, MADV_DONTNEED);  // the next fiber on this stack starts clean
  }
  --m_in_use;
  m_free.push_back(low);
}

void Fiber::start(StackPool& pool, std::function<void()> body) {
  m_started = true;
  m_self = boost::context::fiber(std::allocator_arg, PooledStack{&pool, &m_asan},
                                 [this, body = std::move(body)](boost::context::fiber&& caller) {
                                   FiberAsan::Body on_stack(m_asan);
                                   m_entered = true;
                                   m_caller = std::move(caller);
                                   if (!m_cancelled) body();
                                   return std::move(m_caller);
                                 });
}

void Fiber::prefetch_stack(const void* sp) {
  if (!sp) return;
  for (int line = 0; line < kPrefetchLines; ++line) __builtin_prefetch(static_cast<const char*>(sp) + 64 * line);
  for (int line = 1; line <= kPrefetchLinesBelow; ++line) __builtin_prefetch(static_cast<const char*>(sp) - 64 * line, 1);
}

void Fiber::resume() {
  FiberAsan::Resume to_fiber(m_asan);
  m_self = std::move(m_self).resume();
}

void Fiber::yield() {
  FiberAsan::Yield to_caller(m_asan);
  m_caller = std::move(m_caller).resume();
}

void Fiber::destroy() {
  if (!m_self) return;
  if (!m_entered) {
    // Boost would unwind it inside its own entry code, a switch ASan cannot be told about.
    m_cancelled = true;
    resume();
    return;
  }
  FiberAsan::Resume to_fiber(m_asan);
  m_self = {};  // a forced unwind on the fiber's stack, back here when it has ended
}

}  // namespace symsim::nv
