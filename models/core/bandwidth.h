// A resource that moves bytes one transfer at a time (a link direction, an HBM port,
// a DMA pipe): FIFO occupancy with a busy-until time, no per-flit events.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/core/time.h"

namespace symsim {

class BandwidthResource {
 public:
  explicit BandwidthResource(double gbytes_per_s = 1.0) : m_gbytes_per_s(gbytes_per_s) {}

  void set_bandwidth(double gbytes_per_s) { m_gbytes_per_s = gbytes_per_s; }
  double bandwidth_gbytes_per_s() const { return m_gbytes_per_s; }

  // Occupies the resource for `bytes` starting no earlier than `ready_ps`; returns the start.
  Ps reserve(Ps ready_ps, uint64_t bytes) {
    const Ps start = std::max(ready_ps, m_free_ps);
    const Ps duration = m_transfer.of(bytes, m_gbytes_per_s);
    m_free_ps = start + duration;
    m_busy_ps += duration;
    m_bytes += bytes;
    return start;
  }

  Ps free_ps() const { return m_free_ps; }
  Ps busy_ps() const { return m_busy_ps; }
  uint64_t bytes() const { return m_bytes; }

 private:
  double m_gbytes_per_s;
  Ps m_free_ps = 0;
  Ps m_busy_ps = 0;
  uint64_t m_bytes = 0;
  TransferTime m_transfer;  // transfers of one size come in runs (a put's reads of its source)
};

}  // namespace symsim
