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

// transfer_ps of the last (bytes, rate) asked, kept: a resource that moves messages of one size
// at one rate (a put's link, its HBM port, a core's WQE copy) divides once, not once a message.
// The same value as transfer_ps by construction; a division costs tens of cycles.
class TransferTime {
 public:
  Ps of(uint64_t bytes, double gbytes_per_s) {
    if (bytes != m_bytes || gbytes_per_s != m_gbytes_per_s) {
      m_ps = transfer_ps(bytes, gbytes_per_s);
      m_bytes = bytes;
      m_gbytes_per_s = gbytes_per_s;
    }
    return m_ps;
  }

 private:
  uint64_t m_bytes = UINT64_MAX;  // nothing asked yet
  double m_gbytes_per_s = 0;
  Ps m_ps = 0;
};

}  // namespace symsim
