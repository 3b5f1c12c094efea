// The shared units of one SM that its threads queue on (one CTA runs per SM): the TMA engine
// (every bulk copy occupies it for its engine cost or its bytes at the load cap, whichever is
// longer), the write path (stores and bulk stores alike, 32 B per SM clock on an H200) and the
// atomic issue port.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_set>
#include <vector>

#include "models/core/time.h"
#include "models/nvidia/sm_l1.h"
#include "models/nvidia/tma_engine_mva.h"

namespace symsim::nv {

// A unit's time as a calendar of 16 ns slots, each with 16 ns to give: a request takes time
// from the first slot with some left at or after the one it is ready in. The CTA's threads run up to a quantum apart in
// local time and reach the unit out of time order; a busy-until time would make an early
// request queue behind a later one, a calendar does not.
class SmUnit {
 public:
  static constexpr Ps kSlotPs = 16000;  // 16 ns
  // Occupies the unit for `duration` from no earlier than `ready`; returns the start.
  Ps reserve(Ps ready, Ps duration);

 private:
  struct Slot {
    int64_t slot = -1;  // which slot the entry holds; another: the entry is free
    Ps used = 0;        // time the slot has given out, wherever in it
  };
  Ps& used(int64_t slot) {
    if (slot < m_base) return m_late[slot];
    if (m_top <= m_base) m_base = slot;  // nothing held: the window starts where it is reached
    if (slot - m_base >= static_cast<int64_t>(m_slots.size())) grow(slot - m_base + 1);
    if (slot >= m_top) m_top = slot + 1;
    Slot& s = m_slots[static_cast<uint64_t>(slot) & (m_slots.size() - 1)];
    if (s.slot != slot) s = Slot{slot, 0};
    return s.used;
  }
  void grow(int64_t span);

  // The slots from m_base to m_top, each at index slot mod capacity (a power of two at least
  // the span, so they never collide; entries of slots before m_base are free): no allocation
  // and no clearing as the window moves on.
  std::vector<Slot> m_slots;
  int64_t m_base = 0, m_top = 0;
  // Slots before m_base reached after the window moved past them (a request far behind the
  // latest one; rare).
  std::map<int64_t, Ps> m_late;
};

struct SmPorts {
  SmUnit tma_engine;
  TmaEngineMva tma_mva;  // the engine as a mean-value closed queue once threads share it (tma.engine_mva)
  SmUnit write_path;
  // The plain stores' own turn on the write path (sm.plain_store_own_turn): their bytes as booked on
  // write_path too, without the bulk stores' bytes between them.
  SmUnit plain_write_path;
  SmUnit atomic_issue;
  // Done times of the SM's bulk loads from HBM still in flight (tma.load_hbm_inflight_ns).
  std::vector<Ps> hbm_loads_done;
  // The SM's L1 for plain data loads (sm.l1_bytes), made at the CTA's first such load.
  std::unique_ptr<SmL1> l1;
  // Where the SM's last bulk stores ended (tma.partial_store_floor_ns): a store starting at one of
  // them continues a line the SM is writing. Eight: the most warps of one SM in the dispatch and copy rows (c1w8).
  std::array<uintptr_t, 8> bulk_store_ends{};
  uint32_t bulk_store_next = 0;
  // The granules (sm.store_touch_bytes) the SM's plain stores have written since the CTA started
  // (sm.store_first_touch_ns): a store to another one is a first touch.
  std::unordered_set<uintptr_t> store_touched;
};

}  // namespace symsim::nv
