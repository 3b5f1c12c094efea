// The arithmetic the UDMA engine performs at the target for remote atomics: fetch-and-add and
// compare-and-swap on 4 or 8 byte words, and the element-wise float add of a WRITE with
// reduce. Each returns or applies on raw bytes (the target's HBM), little-endian.
#pragma once
#include <cstdint>
#include <cstring>

namespace symsim::udma {

inline uint64_t load_word(const uint8_t* p, uint32_t width) {
  uint64_t v = 0;
  std::memcpy(&v, p, width);
  return v;
}
inline void store_word(uint8_t* p, uint64_t v, uint32_t width) { std::memcpy(p, &v, width); }

// Adds `addend` (wrapping at the word width) and returns the old value.
inline uint64_t fetch_add(uint8_t* word, uint64_t addend, uint32_t width) {
  const uint64_t old = load_word(word, width);
  store_word(word, old + addend, width);
  return old;
}

// Stores `swap` if the word equals `compare`; returns the old value either way.
inline uint64_t compare_swap(uint8_t* word, uint64_t compare, uint64_t swap, uint32_t width) {
  const uint64_t old = load_word(word, width);
  const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  if ((old & mask) == (compare & mask)) store_word(word, swap, width);
  return old;
}

// dst[i] += src[i] for `bytes / 4` fp32 elements.
inline void reduce_add_fp32(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  for (uint64_t off = 0; off + 4 <= bytes; off += 4) {
    float a, b;
    std::memcpy(&a, dst + off, 4);
    std::memcpy(&b, src + off, 4);
    a += b;
    std::memcpy(dst + off, &a, 4);
  }
}

}  // namespace symsim::udma
