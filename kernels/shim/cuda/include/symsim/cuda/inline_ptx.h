// What inline PTX becomes in a program built by tools/symsim-nvcc: symsim-rewrite translates
// each `asm volatile("...": outputs : inputs)` statement at build time into calls of these,
// which run the instruction on the timed PTX ordering model (models/nvidia/thread_ops.h).
// Operands travel as raw bits (uint64_t); an address operand is either a generic pointer or a
// 32-bit shared-window address (__cvta_generic_to_shared), told apart by its value.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "models/nvidia/thread_ops.h"

// nvcc's address-space conversions: generic <-> 32-bit shared window.
size_t __cvta_generic_to_shared(const void* p);
void* __cvta_shared_to_generic(size_t shared_address);

namespace symsim::cuda::ptx_asm {

using nv::AtomicOp;
using nv::AtomicType;
using nv::Scope;
using nv::Sem;
using nv::Site;

// An operand's bits (pointers as their address, narrower values zero-extended).
template <typename T>
inline uint64_t bits(const T& v) {
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
  } else {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "an inline-PTX operand holds up to 8 bytes");
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
  }
}
// Writes bits into an output operand (its low sizeof(T) bytes).
template <typename T>
inline void set(T& out, uint64_t b) {
  if constexpr (std::is_pointer_v<T>) {
    out = reinterpret_cast<T>(static_cast<uintptr_t>(b));
  } else {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "an inline-PTX operand holds up to 8 bytes");
    std::memcpy(&out, &b, sizeof(T));
  }
}

// The generic address of an address operand plus an offset.
void* ptr(uint64_t address, int64_t offset_bytes);

// ld / st of `n` elements of `elem_bytes` each (vector forms), one access of the model.
void ld(uint64_t* out, void* address, uint32_t elem_bytes, uint32_t n, Sem sem, Scope scope, Site site);
void st(void* address, const uint64_t* values, uint32_t elem_bytes, uint32_t n, Sem sem, Scope scope, Site site);
// ld/st .b128: a 16-byte operand (unsigned __int128 or any 16-byte trivially copyable type).
template <typename T>
inline void ld_wide(T& out, void* address, Sem sem, Scope scope, Site site) {
  static_assert(sizeof(T) == 16 && std::is_trivially_copyable_v<T>, "a .b128 operand holds 16 bytes");
  nv::load(&out, address, 16, sem, scope, site);
}
template <typename T>
inline void st_wide(void* address, const T& value, Sem sem, Scope scope, Site site) {
  static_assert(sizeof(T) == 16 && std::is_trivially_copyable_v<T>, "a .b128 operand holds 16 bytes");
  nv::store(address, &value, 16, sem, scope, site);
}
inline uint64_t atom(void* address, AtomicOp op, AtomicType type, uint64_t operand, uint64_t compare, Sem sem,
                     Scope scope, bool want_result, Site site) {
  return nv::atomic(address, op, type, operand, compare, sem, scope, want_result, site);
}
// mov from a special register: %smid, %laneid, %warpid, %nsmid, %clock, %clock64, %globaltimer,
// %tid.x/y/z, %ntid.x/y/z, %ctaid.x/y/z, %nctaid.x/y/z, %lanemask_lt/le/eq/gt/ge.
uint64_t special(const char* name);
// elect.sync: waits for the mask's lanes (a warp sync), then the elected lane (lowest live lane
// of mask); sets `is_elected` for it.
uint32_t elect(uint32_t mask, bool& is_elected, nv::Site site = nv::Site::here());
// Sign-extends the low `bytes_of_type` bytes for a signed PTX type.
inline uint64_t sext(uint64_t v, uint32_t bytes_of_type) {
  if (bytes_of_type >= 8) return v;
  const uint32_t shift = 64 - 8 * bytes_of_type;
  return static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

// lg2/ex2.approx.f32 operands: float bits in a register.
inline float f32(uint64_t b) {
  const auto w = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
inline uint64_t f32_bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// prmt.b32 d, a, b, c (default mode): byte i of d is byte (c >> 4i) & 7 of {b, a}, or that
// byte's sign bit replicated when bit 3 of the selector is set.
inline uint64_t prmt(uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t both = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    const auto sel = static_cast<uint32_t>((c >> (4 * i)) & 0xf);
    uint32_t byte = static_cast<uint32_t>((both >> (8 * (sel & 7))) & 0xff);
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0x00;
    d |= byte << (8 * i);
  }
  return d;
}

// mbarrier.arrive with a state result: the token is the index of the phase the arrival belongs
// to (try_wait/test_wait without .parity wait for that phase's parity, as the hardware does).
uint64_t mbar_arrive_token(void* mbar, uint32_t count, uint32_t tx_bytes, Site site);
// mbarrier.inval: the barrier is forgotten (using it again needs mbarrier.init).
void mbar_inval(void* mbar);

// Which of `candidates` the template `text` (a macro spliced with literals) is, or -1: picks the
// translation of an asm template built from macros at compile time.
constexpr bool same_text(const char* a, const char* b) {
  while (*a != 0 && *a == *b) ++a, ++b;
  return *a == *b;
}
template <typename... C>
constexpr int which_text(const char* text, C... candidates) {
  const char* all[] = {candidates...};
  for (int i = 0; i < static_cast<int>(sizeof...(C)); ++i)
    if (same_text(text, all[i])) return i;
  return -1;
}

}  // namespace symsim::cuda::ptx_asm
