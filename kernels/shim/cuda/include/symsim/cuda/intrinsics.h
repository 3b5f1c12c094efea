// The simulator side of the CUDA device API: typed loads, stores and atomics with their PTX
// semantics and scope, fences, barriers, warp collectives, TMA and mbarriers, all running on
// the NVIDIA models (models/nvidia/thread_ops.h). Kernel code reaches these through the CUDA
// builtins (device.h) and the PTX-style wrappers (device/symsim_ptx.cuh); the call site of
// every memory instruction is captured for hazard and hang reports.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "models/nvidia/thread_ops.h"

namespace symsim::cuda {

using nv::Scope;
using nv::Sem;
using nv::Site;

#define SYMSIM_HERE ::symsim::nv::Site::here()

template <typename T>
inline T ld(const T* p, Sem sem, Scope scope, Site site) {
  static_assert(std::is_trivially_copyable_v<T>, "loads move plain bytes");
  T v;
  nv::load(&v, p, sizeof(T), sem, scope, site);
  return v;
}

template <typename T>
inline void st(T* p, const T& v, Sem sem, Scope scope, Site site) {
  static_assert(std::is_trivially_copyable_v<T>, "stores move plain bytes");
  nv::store(p, &v, sizeof(T), sem, scope, site);
}

template <typename T>
constexpr nv::AtomicType atomic_type() {
  if constexpr (std::is_same_v<T, float>) return nv::AtomicType::F32;
  else if constexpr (std::is_same_v<T, double>) return nv::AtomicType::F64;
  else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? nv::AtomicType::S32 : nv::AtomicType::U32;
  else return std::is_signed_v<T> ? nv::AtomicType::S64 : nv::AtomicType::U64;
}

template <typename T>
inline uint64_t to_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
inline T from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// An atomic read-modify-write; returns the old value (red.* passes want_result = false).
template <typename T>
inline T atom(T* p, nv::AtomicOp op, T operand, T compare, Sem sem, Scope scope, bool want_result, Site site) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomics on 4- or 8-byte words");
  return from_bits<T>(nv::atomic(p, op, atomic_type<T>(), to_bits(operand), to_bits(compare), sem, scope, want_result, site));
}

void* dynamic_smem();

}  // namespace symsim::cuda
