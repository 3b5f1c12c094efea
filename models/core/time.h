// Simulated time as integer picoseconds: exact, cheap to compare, deterministic.
#pragma once
#include <cstdint>

namespace symsim {

using Ps = uint64_t;

constexpr Ps kPsPerNs = 1000;
constexpr Ps kPsPerUs = 1000 * kPsPerNs;

constexpr Ps ns_to_ps(double ns) { return static_cast<Ps>(ns * 1000.0 + 0.5); }
constexpr double ps_to_ns(Ps ps) { return static_cast<double>(ps) / 1000.0; }
constexpr double ps_to_us(Ps ps) { return static_cast<double>(ps) / 1.0e6; }

// Time to move `bytes` at `gbytes_per_s` (1 GB/s == 1 byte/ns == 1e-3 byte/ps).
inline Ps transfer_ps(uint64_t bytes, double gbytes_per_s) {
  return static_cast<Ps>(static_cast<double>(bytes) * 1000.0 / gbytes_per_s + 0.5);
}

}  // namespace symsim
