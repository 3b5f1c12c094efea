// Which lines of a GPU's memory its L2 holds (least recently used out first, at the effective
// capacity measured for scattered reads), and the L2's atomic units: an atomic on an address
// waits for the previous one on the same address; a warp's lanes hitting one address at once
// reach the L2 as one request (warp aggregation).
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/core/time.h"
#include "models/nvidia/lru_line_set.h"

namespace symsim::nv {

class L2Residency {
 public:
  static constexpr uint32_t kLineBytes = 128;
  explicit L2Residency(uint64_t capacity_bytes) : m_capacity_lines(capacity_bytes / kLineBytes), m_lines(m_capacity_lines) {}

  // Marks the lines of [a, a + bytes) used now (missing ones are brought in); true when every
  // one was already held. `write`: the lines are dirty from now on (stores, atomics, host writes).
  bool access(uintptr_t a, uint64_t bytes, bool write = false);
  // How many dirty lines the last access pushed out of the L2 to make room for its lines (on the
  // GPU each is written back to HBM before its slot takes the new line).
  uint64_t last_dirty_victims() const { return m_last_dirty_victims; }

  // `bytes` written through the L2 without staying in it (a host memset, l2.memset_displaces):
  // as many of the least recently used lines leave as the writes would need room for.
  void displace(uint64_t bytes);

  // When an atomic arriving at `arrive_ps` on `addr` is performed: after the one before it on
  // that address plus `same_address_ps`, unless it is another lane of the same warp
  // instruction (same `warp_key`, same `issue_ps`), which rides on that request.
  Ps atomic_slot(uintptr_t addr, Ps arrive_ps, uint64_t warp_key, Ps issue_ps, Ps same_address_ps);

  // A line brought in from HBM is in L2 from `ready_ps` on; a load that hits it earlier (a
  // warp's other lanes on that line) waits for the fill (l2.hits_wait_for_fill). Kept for the
  // last kFills lines filled, by line number: an older fill is long done.
  void filling(uintptr_t a, Ps ready_ps) { m_fills[(a / kLineBytes) % kFills] = {a / kLineBytes, ready_ps}; }
  Ps fill_ready_ps(uintptr_t a) const {
    const Fill& f = m_fills[(a / kLineBytes) % kFills];
    return f.line == a / kLineBytes ? f.ready_ps : 0;
  }

  // l2.reread_skips_use: whether every line of a data load's [a, a + bytes) (held: call after
  // access) was read by a data load since it was last written (a host copy, a store, an atomic);
  // marks them read either way. The first read of a line after its write costs the GPU more than
  // a re-read (docs/hw-accuracy.md, forty-second pass (s36-reduce)).
  bool reread(uintptr_t a, uint64_t bytes);
  // A first read's data is usable at `usable_ps`; a re-read issued before then waits for it (the
  // line's first read is still on its way). Kept for the last kFills lines, as the fills.
  void first_read(uintptr_t a, Ps usable_ps) { m_first_reads[(a / kLineBytes) % kFills] = {a / kLineBytes, usable_ps}; }
  Ps first_read_usable_ps(uintptr_t a) const {
    const Fill& f = m_first_reads[(a / kLineBytes) % kFills];
    return f.line == a / kLineBytes ? f.ready_ps : 0;
  }

 private:
  static constexpr uint64_t kFills = 4096;
  struct Fill {
    uint64_t line = ~uint64_t{0};
    Ps ready_ps = 0;
  };
  uint64_t m_capacity_lines;
  LruLineSet m_lines;
  uint64_t m_last_dirty_victims = 0;
  struct AtomicAddr {
    Ps performed_ps = 0;
    uint64_t warp_key = 0;
    Ps issue_ps = 0;
  };
  std::unordered_map<uintptr_t, AtomicAddr> m_atomics;
  std::vector<Fill> m_fills = std::vector<Fill>(kFills);
  std::vector<Fill> m_first_reads = std::vector<Fill>(kFills);
};

}  // namespace symsim::nv
