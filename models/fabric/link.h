// One direction of a fabric link: bandwidth, latency (including the switch it enters), and
// cut-through occupancy. A message holds the link from when its head starts until its tail
// has passed; per message, not per flit.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "models/core/time.h"

namespace symsim {

struct LinkTiming {
  Ps head_start_ps;  // the head begins crossing the link
  Ps tail_out_ps;    // the tail has left the sending end
};

class Link {
 public:
  Link(int id, std::string name, double gbytes_per_s, Ps latency_ps)
      : m_id(id), m_name(std::move(name)), m_gbytes_per_s(gbytes_per_s), m_latency_ps(latency_ps) {}

  // Sends `wire_bytes` whose head is ready at `head_ready_ps` and whose tail cannot leave
  // before `tail_ready_ps` (the previous hop's pace); `bandwidth_factor` < 1: a degraded link.
  LinkTiming transmit(Ps head_ready_ps, Ps tail_ready_ps, uint64_t wire_bytes, double bandwidth_factor = 1.0) {
    const Ps start = std::max(head_ready_ps, m_free_ps);
    const Ps tail = std::max(start + m_transfer.of(wire_bytes, m_gbytes_per_s * bandwidth_factor), tail_ready_ps);
    m_busy_ps += tail - start;
    m_free_ps = tail;
    m_bytes += wire_bytes;
    ++m_messages;
    return {start, tail};
  }

  int id() const { return m_id; }
  const std::string& name() const { return m_name; }
  double gbytes_per_s() const { return m_gbytes_per_s; }
  Ps latency_ps() const { return m_latency_ps; }
  void set_bandwidth(double gbytes_per_s) { m_gbytes_per_s = gbytes_per_s; }
  void set_latency(Ps latency_ps) { m_latency_ps = latency_ps; }
  Ps busy_ps() const { return m_busy_ps; }
  uint64_t bytes() const { return m_bytes; }
  uint64_t messages() const { return m_messages; }

 private:
  int m_id;
  std::string m_name;
  double m_gbytes_per_s;
  Ps m_latency_ps;
  Ps m_free_ps = 0;
  Ps m_busy_ps = 0;
  uint64_t m_bytes = 0;
  uint64_t m_messages = 0;
  TransferTime m_transfer;  // a put's messages are all one size
};

}  // namespace symsim
