// The script the udma_atomics kernel plays and its host driver checks: for each of the 14
// atomics one word (8 B apart) with a known initial value and operand, shared by kernel and
// host so the expected results follow from the same numbers.
#pragma once
#include <cstdint>

namespace udma_atomic_script {

enum Slot : uint32_t {
  ADD, INC, FETCH_ADD, FETCH_INC, FETCH, COMPARE_SWAP, SWAP, FETCH_AND, FETCH_OR, FETCH_XOR, SET, AND, OR, XOR, SLOTS
};
// Returned values, in this order.
enum Result : uint32_t {
  R_FETCH_ADD, R_FETCH_INC, R_FETCH, R_CAS_HIT, R_CAS_MISS, R_SWAP, R_FETCH_AND, R_FETCH_OR, R_FETCH_XOR, RESULTS
};
constexpr uint32_t WORD_STRIDE = 8;

// A base that exercises the sign (signed types) or the upper half (64-bit types).
template <typename T>
constexpr T base()
{
    if (static_cast<T>(-1) < static_cast<T>(0)) {
        return static_cast<T>(-1000);
    }
    return sizeof(T) == 8 ? static_cast<T>((uint64_t{1} << 40) + 1000) : static_cast<T>(1000);
}
template <typename T>
constexpr T bits(uint64_t pattern)
{
    return static_cast<T>(pattern);
}
constexpr uint64_t PATTERN = 0xF0F0F0F0F0F0F0F0ull;
constexpr uint64_t MASK = 0x3C3C3C3C3C3C3C3Cull;

template <typename T>
constexpr T initial(uint32_t slot)
{
    return slot >= FETCH_AND && slot != SET ? bits<T>(PATTERN) : static_cast<T>(base<T>() + static_cast<T>(slot));
}
template <typename T>
constexpr T add_operand() { return static_cast<T>(5); }
template <typename T>
constexpr T fetch_add_operand() { return static_cast<T>(7); }
template <typename T>
constexpr T swap_value() { return static_cast<T>(base<T>() + static_cast<T>(60)); }
template <typename T>
constexpr T cas_value() { return static_cast<T>(base<T>() + static_cast<T>(50)); }
template <typename T>
constexpr T set_value() { return static_cast<T>(base<T>() + static_cast<T>(100)); }

constexpr float FLOAT_INITIAL[2] = {1.5f, 0.5f};
constexpr float FLOAT_ADDEND = 2.25f;

}  // namespace udma_atomic_script
