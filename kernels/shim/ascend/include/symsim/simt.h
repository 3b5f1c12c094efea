// The AscendC SIMT subset (docs/ascendc-subset.md): AscendC::Simt::VF_CALL<fn>(Dim3{n,1,1},
// args...) runs `fn(args...)` on n SIMT threads of the calling AIV core. The threads are
// user-space fibers (Boost.Context, pooled stacks) scheduled round-robin by the core's
// coroutine: each runs until it reaches a barrier or returns. threadIdx / GetThreadIdx,
// ThreadBarrier / __syncthreads, atomicAdd / atomicOr on UB and GM words, asc_threadfence and
// 32-byte ulonglong4 stores are what the public SIMT kernels use. st_dev / ld_dev inside a VF
// stop the kernel, as the vendor compiler rejects them there.
#pragma once
#include <cstdint>
#include <functional>
#include <type_traits>

#include "symsim/shim_core.h"

namespace symsim::shim::simt {

struct Index3 {
  uint32_t x = 0, y = 0, z = 0;
};

// Runs `body` on x*y*z SIMT threads (at most kMaxThreads) of the calling core.
constexpr uint32_t kMaxThreads = 1024;
void run_vf(uint32_t x, uint32_t y, uint32_t z, std::function<void()> body);
bool in_vf();
const Index3& thread_idx();
const Index3& block_dim();
void barrier();
// One SIMT operation (atomic, fence) of the running thread, for the VF's time.
void count_op();
// An atomic read-modify-write of the word at `addr`, for its whole scope: counted as one
// operation, ordered after a put that still reads the word, and reported as a store.
void atomic_begin(const void* addr, uint64_t bytes);
void atomic_end(const void* addr, uint64_t bytes);
class AtomicRmw {
 public:
  AtomicRmw(const void* addr, uint64_t bytes) : m_addr(addr), m_bytes(bytes) { atomic_begin(addr, bytes); }
  ~AtomicRmw() { atomic_end(m_addr, m_bytes); }
  AtomicRmw(const AtomicRmw&) = delete;
  AtomicRmw& operator=(const AtomicRmw&) = delete;

 private:
  const void* m_addr;
  uint64_t m_bytes;
};
// st_dev / ld_dev are not callable from a VF.
void reject_in_vf(const char* what);

}  // namespace symsim::shim::simt

#define threadIdx (::symsim::shim::simt::thread_idx())
#define blockDim (::symsim::shim::simt::block_dim())

namespace AscendC::Simt {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

template <auto FN, typename... Args>
inline void VF_CALL(Dim3 dim, Args... args) {
  ::symsim::shim::simt::run_vf(dim.x, dim.y, dim.z, [=]() { FN(args...); });
}

template <int DIM>
inline uint32_t GetThreadIdx() {
  static_assert(DIM >= 0 && DIM <= 2, "GetThreadIdx<DIM>: DIM is 0, 1 or 2");
  const auto& i = ::symsim::shim::simt::thread_idx();
  return DIM == 0 ? i.x : DIM == 1 ? i.y : i.z;
}
template <int DIM>
inline uint32_t GetBlockDim() {
  const auto& d = ::symsim::shim::simt::block_dim();
  return DIM == 0 ? d.x : DIM == 1 ? d.y : d.z;
}
inline void ThreadBarrier() { ::symsim::shim::simt::barrier(); }

}  // namespace AscendC::Simt

inline void __syncthreads() { ::symsim::shim::simt::barrier(); }
inline void asc_threadfence() { ::symsim::shim::simt::count_op(); }

// Atomic read-modify-writes on a UB or GM word; return the old value. SIMT threads of one VF
// take turns, so each is atomic with respect to the others.
template <typename T>
inline T atomicAdd(T* addr, T value) {
  static_assert(std::is_arithmetic<T>::value, "atomicAdd takes an integer or floating-point word");
  const ::symsim::shim::simt::AtomicRmw rmw(addr, sizeof(T));
  const T old = *addr;
  *addr = static_cast<T>(old + value);
  return old;
}
template <typename T>
inline T atomicOr(T* addr, T value) {
  static_assert(std::is_integral<T>::value, "atomicOr takes an integer word");
  const ::symsim::shim::simt::AtomicRmw rmw(addr, sizeof(T));
  const T old = *addr;
  *addr = static_cast<T>(old | value);
  return old;
}
template <typename T>
inline T atomicAnd(T* addr, T value) {
  static_assert(std::is_integral<T>::value, "atomicAnd takes an integer word");
  const ::symsim::shim::simt::AtomicRmw rmw(addr, sizeof(T));
  const T old = *addr;
  *addr = static_cast<T>(old & value);
  return old;
}
template <typename T>
inline T atomicMax(T* addr, T value) {
  const ::symsim::shim::simt::AtomicRmw rmw(addr, sizeof(T));
  const T old = *addr;
  if (value > old) *addr = value;
  return old;
}
template <typename T>
inline T atomicCAS(T* addr, T compare, T value) {
  const ::symsim::shim::simt::AtomicRmw rmw(addr, sizeof(T));
  const T old = *addr;
  if (old == compare) *addr = value;
  return old;
}

// A 32-byte vector of four 64-bit words (one store writes all four).
struct alignas(32) ulonglong4 {
  unsigned long long x, y, z, w;
};
inline ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z,
                                  unsigned long long w) {
  return {x, y, z, w};
}
