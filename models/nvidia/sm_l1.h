// The SM's L1 for plain (weak) data loads of its own GPU's memory (sm.l1_bytes, sm.l1_hit_ns): the
// lines its loads brought in, least recently used 128 B line out. The GPU reads a line it loaded
// before from L1 (combine's wrapped reduce walk: a cycle of rows re-read by each SM reads 23-62%
// faster by the bytes the cycle touches per SM, at one warp an SM as at four; docs/hw-accuracy.md,
// forty-first pass (s35-pull) section 4, and forty-first pass (s35-l1)). Timing only: every load
// still reads memory as it is. Strong loads and atomics never use it (ld.relaxed / acquire /
// volatile go to L2); stores write through (the line stays, with the stored bytes); an acquire
// (load or fence) of GPU or system scope empties it: a weak load after the acquire must see the
// writes it synchronized with, which lines cached before it may not hold. With l2.reread_skips_use a
// hit is a re-read (its data used without sm.load_use_ns); the GPU's L1 holds a 63 KiB cycle of an
// SM's lines and not a 126 KiB one (sm.l1_bytes, docs/hw-accuracy.md, forty-second pass (s36-reduce)).
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "models/core/time.h"
#include "models/nvidia/lru_line_set.h"

namespace symsim::nv {

class SmL1 {
 public:
  static constexpr uint64_t kLineBytes = 128;
  explicit SmL1(uint64_t capacity_bytes) : m_lines(std::max<uint64_t>(1, capacity_bytes / kLineBytes)), m_capacity_lines(capacity_bytes / kLineBytes) {}

  // A load of [addr, addr + bytes) issued at `sample`: when each of its lines is held, the time its
  // data returns from L1 (after `hit_ps`, and no sooner than a fill still bringing a line in: a
  // warp's lanes are loads of their own here, and those after the first on a missing line wait
  // for it as the GPU's one instruction does); 0 when a line is missing. Touches the lines.
  Ps hit_return_ps(uint64_t addr, uint32_t bytes, Ps sample, Ps hit_ps);
  // The missing load returns at `ready`: its lines are in L1 from then on.
  void filled(uint64_t addr, uint32_t bytes, Ps ready);
  void clear();

 private:
  LruLineSet m_lines;
  uint64_t m_capacity_lines;
  std::unordered_map<uint64_t, Ps> m_fill_ps;  // by line: when its last fill returns (lines held, or left since)
};

}  // namespace symsim::nv
