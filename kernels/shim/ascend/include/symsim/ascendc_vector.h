// AscendC vector instructions (the level-2 "first count elements" forms) on the AIV core's
// vector pipe (docs/ascendc-subset.md). Each instruction reads and writes the core's Unified
// Buffer only, occupies PIPE_V for aiv.vector_issue_ns plus its 256 B repeats times
// aiv.vector_repeat_ns, and is ordered against the other pipes by SetFlag/WaitFlag/PipeBarrier
// like a copy (pipe_sync_missing sees its reads and writes). Values are computed when the
// instruction issues, in program order, as MTE2 copies land at issue. Every function here is
// always inlined, so that the entry points' return addresses (the call sites in hazard reports)
// lie in the kernel.
// Included from kernel_operator.h after LocalTensor.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace AscendC {

enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

namespace detail {

// A UB byte range an instruction reads or writes.
struct VecRange {
  const void* p;
  uint64_t bytes;
};
// Issues one vector instruction on PIPE_V of the running core: every range must lie in the
// core's Unified Buffer (else the kernel stops, naming `call`); reports the accesses to the
// checkers; the pipe is busy for issue + `repeats` repeats. Call before computing the values.
void vector_issue(const char* call, std::initializer_list<VecRange> reads, std::initializer_list<VecRange> writes,
                  double repeats);
// Stops the kernel: `call` was given something AscendC does not accept.
[[noreturn]] void vector_reject(const char* call, const char* why);

template <typename T>
struct Identity { using type = T; };
template <typename T>
using NonDeduced = typename Identity<T>::type;

// 256 B repeats covering `count` elements of `bytes_each` bytes.
SYMSIM_INLINE double repeats_of(uint64_t count, uint64_t bytes_each) { return static_cast<double>((count * bytes_each + 255) / 256); }

template <typename T>
SYMSIM_INLINE uint32_t checked_count(const char* call, int64_t count) {
  if (count < 0) vector_reject(call, "a negative element count");
  return static_cast<uint32_t>(count);
}

// Integer arithmetic wraps as the vector unit's does (no C++ overflow UB).
template <typename T, typename F>
SYMSIM_INLINE T wrap(T a, T b, F f) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(f(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return f(a, b);
  }
}

template <typename T>
SYMSIM_INLINE void require_arith() {
  static_assert(std::is_arithmetic<T>::value && !std::is_same<T, bool>::value,
                "AscendC vector instructions take integer or float elements");
}

// The instruction bodies are macros expanded in each public function, so that exactly one
// inlined call lies between the kernel and vector_issue (the call site then resolves to the
// kernel's line). dst[i] = f(src0[i], src1[i]):
#define SYMSIM_VECTOR_BINARY(CALL, DST, SRC0, SRC1, COUNT, ...)                                           \
  do {                                                                                                    \
    ::AscendC::detail::require_arith<T>();                                                                \
    const uint32_t n_ = ::AscendC::detail::checked_count<T>(CALL, COUNT);                                 \
    const uint64_t bytes_ = uint64_t{n_} * sizeof(T);                                                     \
    ::AscendC::detail::vector_issue(CALL, {{(SRC0).GetPhyAddr(), bytes_}, {(SRC1).GetPhyAddr(), bytes_}}, \
                                    {{(DST).GetPhyAddr(), bytes_}}, ::AscendC::detail::repeats_of(n_, sizeof(T))); \
    auto f_ = __VA_ARGS__;                                                                                \
    T* d_ = (DST).GetPhyAddr();                                                                           \
    const T* a_ = (SRC0).GetPhyAddr();                                                                    \
    const T* b_ = (SRC1).GetPhyAddr();                                                                    \
    for (uint32_t i_ = 0; i_ < n_; ++i_) d_[i_] = f_(a_[i_], b_[i_]);                                     \
  } while (0)
// dst[i] = f(src[i], scalar).
#define SYMSIM_VECTOR_WITH_SCALAR(CALL, DST, SRC, SCALAR, COUNT, ...)                                     \
  do {                                                                                                    \
    ::AscendC::detail::require_arith<T>();                                                                \
    const uint32_t n_ = ::AscendC::detail::checked_count<T>(CALL, COUNT);                                 \
    const uint64_t bytes_ = uint64_t{n_} * sizeof(T);                                                     \
    ::AscendC::detail::vector_issue(CALL, {{(SRC).GetPhyAddr(), bytes_}}, {{(DST).GetPhyAddr(), bytes_}},  \
                                    ::AscendC::detail::repeats_of(n_, sizeof(T)));                        \
    auto f_ = __VA_ARGS__;                                                                                \
    T* d_ = (DST).GetPhyAddr();                                                                           \
    const T* a_ = (SRC).GetPhyAddr();                                                                     \
    const T s_ = (SCALAR);                                                                                \
    for (uint32_t i_ = 0; i_ < n_; ++i_) d_[i_] = f_(a_[i_], s_);                                         \
  } while (0)

template <typename To, typename From>
SYMSIM_INLINE To cast_value(From v, RoundMode mode) {
  if constexpr (std::is_floating_point<From>::value && std::is_integral<To>::value) {
    double r = 0;
    switch (mode) {
      case RoundMode::CAST_RINT: r = std::nearbyint(static_cast<double>(v)); break;  // ties to even
      case RoundMode::CAST_FLOOR: r = std::floor(static_cast<double>(v)); break;
      case RoundMode::CAST_CEIL: r = std::ceil(static_cast<double>(v)); break;
      case RoundMode::CAST_ROUND: r = std::round(static_cast<double>(v)); break;  // ties away from zero
      case RoundMode::CAST_TRUNC: r = std::trunc(static_cast<double>(v)); break;
      default: vector_reject("Cast", "float to integer needs CAST_RINT/FLOOR/CEIL/ROUND/TRUNC");
    }
    if (std::isnan(r)) return 0;
    // Out-of-range values saturate (assumed: the vector unit's float->int conversions saturate).
    if (r <= static_cast<double>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (r >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(r);
  } else {
    if (mode == RoundMode::CAST_ODD) vector_reject("Cast", "CAST_ODD converts float to half only");
    return static_cast<To>(v);
  }
}

}  // namespace detail

// --- Fill and index -------------------------------------------------------------------------
template <typename T>
SYMSIM_INLINE void Duplicate(const LocalTensor<T>& dst, const detail::NonDeduced<T>& scalar, const int32_t& count) {
  detail::require_arith<T>();
  const uint32_t n = detail::checked_count<T>("Duplicate", count);
  detail::vector_issue("Duplicate", {}, {{dst.GetPhyAddr(), uint64_t{n} * sizeof(T)}}, detail::repeats_of(n, sizeof(T)));
  for (uint32_t i = 0; i < n; ++i) dst.GetPhyAddr()[i] = scalar;
}
// dst[i] = first + i.
template <typename T>
SYMSIM_INLINE void CreateVecIndex(const LocalTensor<T>& dst, const detail::NonDeduced<T>& first, uint32_t count) {
  detail::require_arith<T>();
  detail::vector_issue("CreateVecIndex", {}, {{dst.GetPhyAddr(), uint64_t{count} * sizeof(T)}},
                       detail::repeats_of(count, sizeof(T)));
  for (uint32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = detail::wrap<T>(first, static_cast<T>(i), [](auto a, auto b) { return a + b; });
}

// --- Element-wise with a scalar -------------------------------------------------------------
#define SYMSIM_ASCENDC_SCALAR_OP(NAME, EXPR)                                                                       \
  template <typename T, bool isSetMask = true>                                                                     \
  SYMSIM_INLINE void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const detail::NonDeduced<T>& scalar,       \
                   const int32_t& count) {        \
    SYMSIM_VECTOR_WITH_SCALAR(#NAME, dst, src, scalar, count, [](T a, T b) { return EXPR; });                   \
  }
SYMSIM_ASCENDC_SCALAR_OP(Adds, detail::wrap<T>(a, b, [](auto x, auto y) { return x + y; }))
SYMSIM_ASCENDC_SCALAR_OP(Muls, detail::wrap<T>(a, b, [](auto x, auto y) { return x * y; }))
SYMSIM_ASCENDC_SCALAR_OP(Maxs, a < b ? b : a)
SYMSIM_ASCENDC_SCALAR_OP(Mins, b < a ? b : a)
#undef SYMSIM_ASCENDC_SCALAR_OP

// --- Element-wise on two tensors ------------------------------------------------------------
#define SYMSIM_ASCENDC_BINARY_OP(NAME, EXPR)                                                                       \
  template <typename T>                                                                                            \
  SYMSIM_INLINE void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,             \
                   const int32_t& count) {        \
    SYMSIM_VECTOR_BINARY(#NAME, dst, src0, src1, count, [](T a, T b) { return EXPR; });                         \
  }
SYMSIM_ASCENDC_BINARY_OP(Add, detail::wrap<T>(a, b, [](auto x, auto y) { return x + y; }))
SYMSIM_ASCENDC_BINARY_OP(Sub, detail::wrap<T>(a, b, [](auto x, auto y) { return x - y; }))
SYMSIM_ASCENDC_BINARY_OP(Mul, detail::wrap<T>(a, b, [](auto x, auto y) { return x * y; }))
SYMSIM_ASCENDC_BINARY_OP(Max, a < b ? b : a)
SYMSIM_ASCENDC_BINARY_OP(Min, b < a ? b : a)
#undef SYMSIM_ASCENDC_BINARY_OP
template <typename T>
SYMSIM_INLINE void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(std::is_floating_point<T>::value, "AscendC::Div divides float elements");
  SYMSIM_VECTOR_BINARY("Div", dst, src0, src1, count, [](T a, T b) { return a / b; });
}
template <typename T>
SYMSIM_INLINE void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(std::is_integral<T>::value, "AscendC::And takes integer elements");
  SYMSIM_VECTOR_BINARY("And", dst, src0, src1, count, [](T a, T b) { return static_cast<T>(a & b); });
}
template <typename T>
SYMSIM_INLINE void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(std::is_integral<T>::value, "AscendC::Or takes integer elements");
  SYMSIM_VECTOR_BINARY("Or", dst, src0, src1, count, [](T a, T b) { return static_cast<T>(a | b); });
}

// --- Conversion -----------------------------------------------------------------------------
// Float to integer rounds as `mode` says and saturates; integer to float and float to float
// convert as C++ does (CAST_NONE / CAST_RINT); CAST_ODD (float to half) is not available.
template <typename To, typename From>
SYMSIM_INLINE void Cast(const LocalTensor<To>& dst, const LocalTensor<From>& src, const RoundMode& mode, const uint32_t count) {
  detail::require_arith<To>();
  detail::require_arith<From>();
  const uint64_t wider = sizeof(To) > sizeof(From) ? sizeof(To) : sizeof(From);
  detail::vector_issue("Cast", {{src.GetPhyAddr(), uint64_t{count} * sizeof(From)}},
                       {{dst.GetPhyAddr(), uint64_t{count} * sizeof(To)}}, detail::repeats_of(count, wider));
  for (uint32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = detail::cast_value<To>(src.GetPhyAddr()[i], mode);
}

// --- Reductions -----------------------------------------------------------------------------
// dst[0] = the sum (in index order). The instruction writes one partial per 256 B repeat of
// the source into workLocal (assumed layout), then reduces those: twice the passes.
template <typename T>
SYMSIM_INLINE void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count) {
  detail::require_arith<T>();
  const uint32_t n = detail::checked_count<T>("ReduceSum", count);
  const double reps = detail::repeats_of(n, sizeof(T));
  detail::vector_issue("ReduceSum", {{src.GetPhyAddr(), uint64_t{n} * sizeof(T)}},
                       {{dst.GetPhyAddr(), sizeof(T)}, {work.GetPhyAddr(), static_cast<uint64_t>(reps) * sizeof(T)}},
                       reps + detail::repeats_of(static_cast<uint64_t>(reps), sizeof(T)));
  T sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum = detail::wrap<T>(sum, src.GetPhyAddr()[i], [](auto a, auto b) { return a + b; });
  dst.GetPhyAddr()[0] = sum;
}
namespace detail {
// ReduceMax / ReduceMin (issued by SYMSIM_VECTOR_REDUCE_ISSUE): dst[0] = the extreme value, and with `with_index` dst[1] holds the
// index of its first occurrence as a uint32 bit pattern (read it through ReinterpretCast).
template <typename T, typename Better>
SYMSIM_INLINE void reduce_extreme(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n, bool with_index,
                                  Better better) {
  const T* s = src.GetPhyAddr();
  uint32_t at = 0;
  for (uint32_t i = 1; i < n; ++i)
    if (better(s[i], s[at])) at = i;
  dst.GetPhyAddr()[0] = s[at];
  if (with_index) std::memcpy(dst.GetPhyAddr() + 1, &at, sizeof(at));
}
}  // namespace detail
#define SYMSIM_VECTOR_REDUCE_ISSUE(CALL)                                                                  \
  ::AscendC::detail::require_arith<T>();                                                                \
  const uint32_t n = ::AscendC::detail::checked_count<T>(CALL, count);                                  \
  if (n == 0) ::AscendC::detail::vector_reject(CALL, "an empty source (count 0)");                      \
  if (calIndex && sizeof(T) < sizeof(uint32_t))                                                         \
    ::AscendC::detail::vector_reject(CALL, "an index of elements narrower than 4 bytes");              \
  const double reps = ::AscendC::detail::repeats_of(n, sizeof(T));                                      \
  ::AscendC::detail::vector_issue(CALL, {{src.GetPhyAddr(), uint64_t{n} * sizeof(T)}},                  \
                                  {{dst.GetPhyAddr(), (calIndex ? 2u : 1u) * sizeof(T)},                \
                                   {work.GetPhyAddr(), 2 * static_cast<uint64_t>(reps) * sizeof(T)}},  \
                                  reps + ::AscendC::detail::repeats_of(2 * static_cast<uint64_t>(reps), sizeof(T)))
template <typename T>
SYMSIM_INLINE void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count,
                      bool calIndex = false) {
  SYMSIM_VECTOR_REDUCE_ISSUE("ReduceMax");
  detail::reduce_extreme(dst, src, n, calIndex, [](T a, T b) { return b < a; });
}
template <typename T>
SYMSIM_INLINE void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count,
                      bool calIndex = false) {
  SYMSIM_VECTOR_REDUCE_ISSUE("ReduceMin");
  detail::reduce_extreme(dst, src, n, calIndex, [](T a, T b) { return a < b; });
}

// --- Compare and select ---------------------------------------------------------------------
namespace detail {
template <typename T>
SYMSIM_INLINE bool compare(T a, T b, CMPMODE mode) {
  switch (mode) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    case CMPMODE::NE: return a != b;
  }
  return false;
}
// Writes the bit mask dst (bit i of byte i/8: element i compared true), once issued by
// SYMSIM_VECTOR_COMPARE_ISSUE: the source must fill whole 256 B repeats, as AscendC requires.
template <typename T, typename U, typename Rhs>
SYMSIM_INLINE void compare_into(const LocalTensor<U>& dst, const LocalTensor<T>& src0, Rhs rhs, CMPMODE mode,
                                uint32_t count) {
  auto* mask = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  std::memset(mask, 0, count / 8u);
  for (uint32_t i = 0; i < count; ++i)
    if (compare(src0.GetPhyAddr()[i], rhs(i), mode)) mask[i / 8] = static_cast<uint8_t>(mask[i / 8] | (1u << (i % 8)));
}
}  // namespace detail
#define SYMSIM_VECTOR_COMPARE_ISSUE(CALL, ...)                                                            \
  ::AscendC::detail::require_arith<T>();                                                                \
  static_assert(std::is_integral<U>::value, "the Compare mask is an integer tensor (uint8_t)");         \
  if (uint64_t{count} * sizeof(T) % 256 != 0)                                                           \
    ::AscendC::detail::vector_reject(CALL, "a count whose bytes are not a multiple of 256");            \
  ::AscendC::detail::vector_issue(CALL, {{src0.GetPhyAddr(), uint64_t{count} * sizeof(T)} __VA_ARGS__}, \
                                  {{dst.GetPhyAddr(), count / 8u}}, ::AscendC::detail::repeats_of(count, sizeof(T)))
template <typename T, typename U>
SYMSIM_INLINE void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                    uint32_t count) {
  const T* b = src1.GetPhyAddr();
  SYMSIM_VECTOR_COMPARE_ISSUE("Compare", , {b, uint64_t{count} * sizeof(T)});
  detail::compare_into(dst, src0, [b](uint32_t i) { return b[i]; }, mode, count);
}
template <typename T, typename U>
SYMSIM_INLINE void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const detail::NonDeduced<T> scalar,
                          CMPMODE mode, uint32_t count) {
  SYMSIM_VECTOR_COMPARE_ISSUE("CompareScalar");
  detail::compare_into(dst, src0, [scalar](uint32_t) { return scalar; }, mode, count);
}
// dst[i] = mask bit i set ? src0[i] : src1[i] (or the scalar src1).
template <typename T, typename U>
SYMSIM_INLINE void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE mode, uint32_t count) {
  detail::require_arith<T>();
  if (mode != SELMODE::VSEL_TENSOR_TENSOR_MODE) detail::vector_reject("Select", "two tensors with a mode other than VSEL_TENSOR_TENSOR_MODE");
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  detail::vector_issue("Select", {{mask.GetPhyAddr(), (count + 7u) / 8u}, {src0.GetPhyAddr(), bytes}, {src1.GetPhyAddr(), bytes}},
                       {{dst.GetPhyAddr(), bytes}}, detail::repeats_of(count, sizeof(T)));
  const auto* m = reinterpret_cast<const uint8_t*>(mask.GetPhyAddr());
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = (m[i / 8] >> (i % 8)) & 1u ? src0.GetPhyAddr()[i] : src1.GetPhyAddr()[i];
}
template <typename T, typename U>
SYMSIM_INLINE void Select(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const LocalTensor<T>& src0,
                   const detail::NonDeduced<T> src1, SELMODE mode, uint32_t count) {
  detail::require_arith<T>();
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) detail::vector_reject("Select", "a scalar with a mode other than VSEL_TENSOR_SCALAR_MODE");
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  detail::vector_issue("Select", {{mask.GetPhyAddr(), (count + 7u) / 8u}, {src0.GetPhyAddr(), bytes}}, {{dst.GetPhyAddr(), bytes}},
                       detail::repeats_of(count, sizeof(T)));
  const auto* m = reinterpret_cast<const uint8_t*>(mask.GetPhyAddr());
  for (uint32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = (m[i / 8] >> (i % 8)) & 1u ? src0.GetPhyAddr()[i] : src1;
}

// --- Index ops ------------------------------------------------------------------------------
// Gather: dst[i] = the element at byte offset srcBase + offset[i] of src. Scatter: the element
// src[i] goes to byte offset dstBase + offset[i] of dst. Offsets must be element aligned and
// inside the tensor. Cost: one repeat per 8 elements (assumed: eight independent UB accesses
// per cycle, one 32 B block of 4-byte offsets).
template <typename T>
SYMSIM_INLINE void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
                   const uint32_t srcBase, const uint32_t count) {
  detail::require_arith<T>();
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t at = uint64_t{srcBase} + offsets.GetPhyAddr()[i];
    if (at % sizeof(T) != 0 || at + sizeof(T) > src.GetLength()) detail::vector_reject("Gather", "an offset outside the source tensor or not element aligned");
  }
  detail::vector_issue("Gather", {{offsets.GetPhyAddr(), uint64_t{count} * 4}, {src.GetPhyAddr(), src.GetLength()}},
                       {{dst.GetPhyAddr(), uint64_t{count} * sizeof(T)}}, (count + 7u) / 8u);
  const auto* base = reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + srcBase;
  for (uint32_t i = 0; i < count; ++i) std::memcpy(dst.GetPhyAddr() + i, base + offsets.GetPhyAddr()[i], sizeof(T));
}
template <typename T>
SYMSIM_INLINE void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offsets,
                    const uint32_t dstBase, const uint32_t count) {
  detail::require_arith<T>();
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t at = uint64_t{dstBase} + offsets.GetPhyAddr()[i];
    if (at % sizeof(T) != 0 || at + sizeof(T) > dst.GetLength()) detail::vector_reject("Scatter", "an offset outside the destination tensor or not element aligned");
  }
  detail::vector_issue("Scatter", {{offsets.GetPhyAddr(), uint64_t{count} * 4}, {src.GetPhyAddr(), uint64_t{count} * sizeof(T)}},
                       {{dst.GetPhyAddr(), dst.GetLength()}}, (count + 7u) / 8u);
  auto* base = reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + dstBase;
  for (uint32_t i = 0; i < count; ++i) std::memcpy(base + offsets.GetPhyAddr()[i], src.GetPhyAddr() + i, sizeof(T));
}

}  // namespace AscendC
