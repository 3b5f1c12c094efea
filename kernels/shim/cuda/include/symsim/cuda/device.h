// CUDA device builtins for kernel sources compiled by the host compiler against the models:
// function qualifiers, thread/block indices, __shared__, barriers, warp shuffles and votes,
// atomics, fences, clock64. Included by the shim's cuda_runtime.h; kernels never include it.
//
// __shared__ puts variables in a linker section the SM scheduler keeps one image of per CTA
// (a CTA sees its own copy). Dynamic shared memory (`extern __shared__ T x[]` on the GPU) is
// SYMSIM_EXTERN_SHARED(T, x) in portable kernel code (device/symsim_launch.cuh).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "symsim/cuda/intrinsics.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __shared__ static __attribute__((section("symsim_shared")))
#define __constant__ static

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
struct uint3 {
  unsigned int x, y, z;
};

struct int2 { int x, y; };
struct int4 { int x, y, z, w; };
struct uint2 { unsigned int x, y; };
struct uint4 { unsigned int x, y, z, w; };
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
struct longlong2 { long long x, y; };
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
inline float2 make_float2(float x, float y) { return {x, y}; }
inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }

namespace symsim::cuda {
uint3 thread_idx();
uint3 block_idx();
dim3 block_dim();
dim3 grid_dim();
// The calling CTA's own copy of the static `__shared__` variable `tag` stands for (zeroed when
// the CTA first reaches it): symsim-rewrite --cuda turns a program's in-function __shared__
// declarations into references to it.
void* static_smem(const void* tag, size_t bytes, size_t align);
}  // namespace symsim::cuda

#define threadIdx (::symsim::cuda::thread_idx())
#define blockIdx (::symsim::cuda::block_idx())
#define blockDim (::symsim::cuda::block_dim())
#define gridDim (::symsim::cuda::grid_dim())
constexpr int warpSize = 32;

// Barriers and warp collectives.
inline void __syncthreads(::symsim::nv::Site s = SYMSIM_HERE) { ::symsim::nv::cta_barrier(0, 0, s); }
inline int __syncthreads_count(int pred, ::symsim::nv::Site s = SYMSIM_HERE);
inline void __syncwarp(unsigned mask = 0xffffffffu, ::symsim::nv::Site s = SYMSIM_HERE) {
  ::symsim::nv::warp_op(::symsim::nv::WarpOp::Sync, mask, 0, 0, 32, s);
}
inline unsigned __activemask() { return ::symsim::nv::live_lanes(); }

template <typename T>
inline T symsim_shfl(::symsim::nv::WarpOp op, unsigned mask, T v, unsigned arg, int width, ::symsim::nv::Site s) {
  static_assert(sizeof(T) <= 8, "shuffles move up to 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = ::symsim::nv::warp_op(op, mask, bits, arg, static_cast<uint32_t>(width), s);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
template <typename T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = 32, ::symsim::nv::Site s = SYMSIM_HERE) {
  return symsim_shfl(::symsim::nv::WarpOp::ShflIdx, mask, v, static_cast<unsigned>(src), width, s);
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32, ::symsim::nv::Site s = SYMSIM_HERE) {
  return symsim_shfl(::symsim::nv::WarpOp::ShflUp, mask, v, delta, width, s);
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32, ::symsim::nv::Site s = SYMSIM_HERE) {
  return symsim_shfl(::symsim::nv::WarpOp::ShflDown, mask, v, delta, width, s);
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32, ::symsim::nv::Site s = SYMSIM_HERE) {
  return symsim_shfl(::symsim::nv::WarpOp::ShflXor, mask, v, static_cast<unsigned>(lane_mask), width, s);
}
inline unsigned __ballot_sync(unsigned mask, int pred, ::symsim::nv::Site s = SYMSIM_HERE) {
  return static_cast<unsigned>(::symsim::nv::warp_op(::symsim::nv::WarpOp::Ballot, mask, pred != 0, 0, 32, s));
}
inline int __any_sync(unsigned mask, int pred, ::symsim::nv::Site s = SYMSIM_HERE) {
  return static_cast<int>(::symsim::nv::warp_op(::symsim::nv::WarpOp::Any, mask, pred != 0, 0, 32, s));
}
inline int __all_sync(unsigned mask, int pred, ::symsim::nv::Site s = SYMSIM_HERE) {
  return static_cast<int>(::symsim::nv::warp_op(::symsim::nv::WarpOp::All, mask, pred != 0, 0, 32, s));
}
inline unsigned __reduce_add_sync(unsigned mask, unsigned v, ::symsim::nv::Site s = SYMSIM_HERE) {
  return static_cast<unsigned>(::symsim::nv::warp_op(::symsim::nv::WarpOp::ReduceAdd, mask, v, 0, 32, s));
}
// __match_any_sync / __match_all_sync: lanes of `mask` holding the same value, found with one
// shuffle per lane (each costs a warp collective, as the hardware's match is one).
template <typename T>
inline unsigned __match_any_sync(unsigned mask, T v, ::symsim::nv::Site s = SYMSIM_HERE) {
  unsigned same = 0;
  for (int lane = 0; lane < 32; ++lane)
    if ((mask >> lane) & 1u) same |= (symsim_shfl(::symsim::nv::WarpOp::ShflIdx, mask, v, static_cast<unsigned>(lane), 32, s) == v ? 1u : 0u) << lane;
  return same;
}
template <typename T>
inline unsigned __match_all_sync(unsigned mask, T v, int* pred, ::symsim::nv::Site s = SYMSIM_HERE) {
  const unsigned same = __match_any_sync(mask, v, s);
  *pred = same == mask;
  return same == mask ? mask : 0u;
}
#define __grid_constant__
inline int __syncthreads_count(int pred, ::symsim::nv::Site s) {
  // A CTA-wide count through shared memory, as the hardware barrier reduction does (the CTA's
  // own variable, also in a kernel library, whose __shared__ section no scheduler swaps).
  static const char tag = 0;
  int& symsim_sync_count = *static_cast<int*>(::symsim::cuda::static_smem(&tag, sizeof(int), 16));
  __syncthreads(s);
  if (pred) __atomic_fetch_add(&symsim_sync_count, 1, __ATOMIC_RELAXED);
  __syncthreads(s);
  const int n = symsim_sync_count;
  __syncthreads(s);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) symsim_sync_count = 0;
  __syncthreads(s);
  return n;
}

// min / max as CUDA's math headers declare them in the global namespace.
#define SYMSIM_MIN_MAX(T)                             \
  inline T min(T a, T b) { return b < a ? b : a; } \
  inline T max(T a, T b) { return a < b ? b : a; }
SYMSIM_MIN_MAX(int)
SYMSIM_MIN_MAX(unsigned)
SYMSIM_MIN_MAX(long)
SYMSIM_MIN_MAX(unsigned long)
SYMSIM_MIN_MAX(long long)
SYMSIM_MIN_MAX(unsigned long long)
SYMSIM_MIN_MAX(float)
SYMSIM_MIN_MAX(double)
#undef SYMSIM_MIN_MAX

// Float to integer conversions with the rounding their suffix names, saturating as the hardware
// does (NaN gives 0).
inline unsigned __float2uint_rd(float x) {
  return !(x > 0.0f) ? 0u : x >= 4294967296.0f ? 0xffffffffu : static_cast<unsigned>(x);
}
inline unsigned __float2uint_rn(float x) {
  return !(x > 0.0f) ? 0u : x >= 4294967296.0f ? 0xffffffffu : static_cast<unsigned>(__builtin_nearbyintf(x));
}
inline int __float2int_rd(float x) {
  return x != x ? 0 : x <= -2147483648.0f ? INT32_MIN : x >= 2147483648.0f ? INT32_MAX : static_cast<int>(__builtin_floorf(x));
}
inline int __float2int_rn(float x) {
  return x != x ? 0 : x <= -2147483648.0f ? INT32_MIN : x >= 2147483648.0f ? INT32_MAX : static_cast<int>(__builtin_nearbyintf(x));
}

// Bit tricks (plain arithmetic).
inline int __popc(unsigned v) { return __builtin_popcount(v); }
inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
inline int __ffs(int v) { return __builtin_ffs(v); }
inline int __ffsll(long long v) { return __builtin_ffsll(v); }
inline int __clz(int v) { return v == 0 ? 32 : __builtin_clz(static_cast<unsigned>(v)); }
inline unsigned __brev(unsigned v) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

// Fences (__threadfence* are fence.sc at their scope).
inline void __threadfence_block(::symsim::nv::Site s = SYMSIM_HERE) {
  ::symsim::nv::fence(::symsim::nv::Sem::Sc, ::symsim::nv::Scope::Cta, s);
}
inline void __threadfence(::symsim::nv::Site s = SYMSIM_HERE) {
  ::symsim::nv::fence(::symsim::nv::Sem::Sc, ::symsim::nv::Scope::Gpu, s);
}
inline void __threadfence_system(::symsim::nv::Site s = SYMSIM_HERE) {
  ::symsim::nv::fence(::symsim::nv::Sem::Sc, ::symsim::nv::Scope::Sys, s);
}

inline long long clock64() { return static_cast<long long>(::symsim::nv::clock64()); }

inline void __nanosleep(unsigned ns) { ::symsim::nv::nanosleep(ns); }
[[noreturn]] inline void __trap() { ::symsim::nv::trap("__trap() called"); }

// Read-only data cache load: a weak load.
template <typename T>
inline T __ldg(const T* p, ::symsim::nv::Site s = SYMSIM_HERE) {
  return ::symsim::cuda::ld(p, ::symsim::nv::Sem::Weak, ::symsim::nv::Scope::Gpu, s);
}

// Atomics: relaxed, GPU scope (_system: sys, _block: cta), returning the old value.
#define SYMSIM_ATOMIC(name, op, scope)                                                                         \
  template <typename T>                                                                                        \
  inline T name(T* p, T v, ::symsim::nv::Site s = SYMSIM_HERE) {                                               \
    return ::symsim::cuda::atom<T>(p, ::symsim::nv::AtomicOp::op, v, T{}, ::symsim::nv::Sem::Relaxed,          \
                                   ::symsim::nv::Scope::scope, true, s);                                       \
  }
SYMSIM_ATOMIC(atomicAdd, Add, Gpu)
SYMSIM_ATOMIC(atomicSub, Sub, Gpu)
SYMSIM_ATOMIC(atomicExch, Exch, Gpu)
SYMSIM_ATOMIC(atomicMax, Max, Gpu)
SYMSIM_ATOMIC(atomicMin, Min, Gpu)
SYMSIM_ATOMIC(atomicAnd, And, Gpu)
SYMSIM_ATOMIC(atomicOr, Or, Gpu)
SYMSIM_ATOMIC(atomicXor, Xor, Gpu)
SYMSIM_ATOMIC(atomicAdd_system, Add, Sys)
SYMSIM_ATOMIC(atomicSub_system, Sub, Sys)
SYMSIM_ATOMIC(atomicExch_system, Exch, Sys)
SYMSIM_ATOMIC(atomicMax_system, Max, Sys)
SYMSIM_ATOMIC(atomicAdd_block, Add, Cta)
#undef SYMSIM_ATOMIC
// CUDA's unsigned long long overloads: a uint64_t (unsigned long) operand converts to them.
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v, ::symsim::nv::Site s = SYMSIM_HERE) {
  return atomicAdd<unsigned long long>(p, v, s);
}
inline unsigned long long atomicMax(unsigned long long* p, unsigned long long v, ::symsim::nv::Site s = SYMSIM_HERE) {
  return atomicMax<unsigned long long>(p, v, s);
}
template <typename T>
inline T atomicCAS(T* p, T compare, T v, ::symsim::nv::Site s = SYMSIM_HERE) {
  return ::symsim::cuda::atom<T>(p, ::symsim::nv::AtomicOp::Cas, v, compare, ::symsim::nv::Sem::Relaxed,
                                 ::symsim::nv::Scope::Gpu, true, s);
}
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long compare, unsigned long long v,
                                    ::symsim::nv::Site s = SYMSIM_HERE) {
  return atomicCAS<unsigned long long>(p, compare, v, s);
}
template <typename T>
inline T atomicCAS_system(T* p, T compare, T v, ::symsim::nv::Site s = SYMSIM_HERE) {
  return ::symsim::cuda::atom<T>(p, ::symsim::nv::AtomicOp::Cas, v, compare, ::symsim::nv::Sem::Relaxed,
                                 ::symsim::nv::Scope::Sys, true, s);
}
inline unsigned atomicInc(unsigned* p, unsigned limit, ::symsim::nv::Site s = SYMSIM_HERE) {
  return ::symsim::cuda::atom<unsigned>(p, ::symsim::nv::AtomicOp::Inc, limit, 0u, ::symsim::nv::Sem::Relaxed,
                                        ::symsim::nv::Scope::Gpu, true, s);
}
