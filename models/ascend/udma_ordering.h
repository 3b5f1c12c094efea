// How the flag byte of a WQE orders it against the earlier WQEs of its QP (the engine's side
// of aclshmemx_udma_op_config_t). The low two ordering bits are the placement order, as in
// URMA's work-request flags (bit 2, completion order, is always met: CQEs are written in
// order):
//   NO (0)  no constraint: the WQE's data may land before that of any earlier WQE;
//   RO (1)  relaxed: it may pass earlier NO/RO WQEs but lands after every earlier SO WQE;
//   SO (2)  strong: it lands after every earlier WQE of the QP.
// The values of RO and the exact RO rule are assumptions (the public sources define NO = 0
// and SO = 2 only). A fence makes the WQE start only once every earlier WQE has completed.
// Completion is in order whatever the flags: a CQE means its WQE and every earlier one of the
// QP completed (what quiet and a batch's single CQE rely on).
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/ascend/wqe_layout.h"
#include "models/core/time.h"

namespace symsim::udma {

constexpr uint8_t kPlaceOrderMask = 0x3;

class QpOrdering {
 public:
  // Earliest time the WQE may start executing (fence: after every earlier completion).
  Ps start_after(uint8_t flags) const { return (flags & flag::kFence) ? m_completed_all_ps : 0; }
  // Earliest time the WQE's first byte may be placed at its destination.
  Ps place_after(uint8_t flags) const {
    switch (flags & kPlaceOrderMask) {
      case kOdrStrong: return m_placed_all_ps;
      case kOdrRelaxed: return m_placed_strong_ps;
      default: return 0;
    }
  }
  // The WQE's last byte was placed at `placed_ps`; it completed at `complete_ps`.
  // Every WQE recorded so far has completed by then (a CQE may not appear earlier).
  Ps completed_all_ps() const { return m_completed_all_ps; }
  void record(uint8_t flags, Ps placed_ps, Ps complete_ps) {
    m_placed_all_ps = std::max(m_placed_all_ps, placed_ps);
    if ((flags & kPlaceOrderMask) == kOdrStrong) m_placed_strong_ps = std::max(m_placed_strong_ps, placed_ps);
    m_completed_all_ps = std::max(m_completed_all_ps, complete_ps);
  }

 private:
  Ps m_placed_all_ps = 0;
  Ps m_placed_strong_ps = 0;
  Ps m_completed_all_ps = 0;
};

}  // namespace symsim::udma
