// AscendC's GM atomics. SetAtomicAdd<T>() puts the core's MTE3 copies from UB to GM in the
// atomic-add mode until SetAtomicNone(): each such copy adds its T elements into the destination
// when it completes (as one read-modify-write of the destination, so concurrent adds from other
// cores or PEs all count) instead of overwriting it. T: int8_t, int16_t, half, bfloat16_t,
// int32_t, float (upstream CANN SHMEM's list for the 910 cores). AtomicAdd / AtomicCas /
// AtomicExch are scalar GM atomics of the Ascend 950 (platform param aiv.gm_atomics): a request
// to the word's HBM (across the fabric for another PE's), performed there, the old value back.
// Included from kernel_operator.h.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace AscendC {
namespace detail {
enum class AtomicAddType { kNone, kInt8, kInt16, kHalf, kBf16, kInt32, kFloat };
void set_atomic_add(AtomicAddType type);
template <typename T>
constexpr AtomicAddType atomic_add_type() {
  if constexpr (std::is_same<T, int8_t>::value) return AtomicAddType::kInt8;
  else if constexpr (std::is_same<T, int16_t>::value) return AtomicAddType::kInt16;
  else if constexpr (std::is_same<T, half>::value) return AtomicAddType::kHalf;
  else if constexpr (std::is_same<T, bfloat16_t>::value) return AtomicAddType::kBf16;
  else if constexpr (std::is_same<T, int32_t>::value) return AtomicAddType::kInt32;
  else if constexpr (std::is_same<T, float>::value) return AtomicAddType::kFloat;
  else return AtomicAddType::kNone;
}
enum class GmAtomic { kAdd, kCas, kExch };
// The scalar GM atomic `op` on the `width`-byte word at `addr`; returns its old value.
// `is_float`: an add of float words.
uint64_t gm_atomic(const char* api, GmAtomic op, void* addr, uint32_t width, bool is_float, uint64_t value,
                   uint64_t compare);
template <typename T>
uint64_t word_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
T word_value(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
}  // namespace detail

template <typename T>
SYMSIM_INLINE void SetAtomicAdd() {
  static_assert(detail::atomic_add_type<T>() != detail::AtomicAddType::kNone,
                "SetAtomicAdd<T>: T is int8_t, int16_t, half, bfloat16_t, int32_t or float");
  detail::set_atomic_add(detail::atomic_add_type<T>());
}
SYMSIM_INLINE void SetAtomicNone() { detail::set_atomic_add(detail::AtomicAddType::kNone); }

template <typename T>
SYMSIM_INLINE T AtomicAdd(__gm__ T* addr, T value) {
  static_assert(std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value || std::is_same<T, int64_t>::value ||
                    std::is_same<T, uint64_t>::value || std::is_same<T, float>::value,
                "AtomicAdd takes int32_t, uint32_t, int64_t, uint64_t or float words");
  return detail::word_value<T>(detail::gm_atomic("AscendC::AtomicAdd", detail::GmAtomic::kAdd, addr, sizeof(T),
                                                 std::is_floating_point<T>::value, detail::word_bits(value), 0));
}
template <typename T>
SYMSIM_INLINE T AtomicCas(__gm__ T* addr, T compare, T value) {
  static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                "AtomicCas takes 32- or 64-bit integer words");
  return detail::word_value<T>(detail::gm_atomic("AscendC::AtomicCas", detail::GmAtomic::kCas, addr, sizeof(T), false,
                                                 detail::word_bits(value), detail::word_bits(compare)));
}
template <typename T>
SYMSIM_INLINE T AtomicExch(__gm__ T* addr, T value) {
  static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                "AtomicExch takes 32- or 64-bit integer words");
  return detail::word_value<T>(detail::gm_atomic("AscendC::AtomicExch", detail::GmAtomic::kExch, addr, sizeof(T),
                                                 false, detail::word_bits(value), 0));
}

}  // namespace AscendC
