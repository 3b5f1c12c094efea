// Small seeded generator (splitmix64) written out here so that a seed gives the same
// run on every platform and standard library (std distributions are not portable).
#pragma once

#include <cstddef>
#include <cstdint>

namespace symsim::ptx {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform-enough index in [0, n); n must be > 0. The modulo bias is negligible for the
  // handful of choices a litmus step offers.
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

  bool coin(int percent) { return below(100) < static_cast<size_t>(percent); }

 private:
  uint64_t state_;
};

}  // namespace symsim::ptx
