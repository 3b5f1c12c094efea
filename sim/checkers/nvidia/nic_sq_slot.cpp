// sq_overrun and torn_wqe on a NIC: the SQ slot the NIC fetched did not hold the WQE it was
// rung for. A later WQE of the same QP (the index one or more rings ahead) means WQEs were
// posted past the ring before the NIC read this one (sq_overrun; the NIC executes what the
// slot holds); anything else means the WQE was not (fully) visible when its doorbell rang, or
// its bytes do not parse (torn_wqe; the NIC completes it with an error).
#include <fmt/format.h>

#include "sim/checkers/nvidia/nvidia_checker.h"
#include "sim/checkers/sq_overrun.h"
#include "sim/checkers/torn_wqe.h"

namespace symsim {

namespace {

class NicSqSlotChecker : public NvidiaChecker {
 public:
  using NvidiaChecker::NvidiaChecker;

  void on_nic_slot_mismatch(const nv::NicSlotMismatch& m) override {
    const uint32_t expected16 = m.index & 0xffff;
    const uint32_t ahead = (uint32_t{m.found16} - expected16) & 0xffff;
    if (ahead < 0x8000 && ahead % m.qp.sq_depth == 0) {
      m_ctx.log.report(at_qp(kSqOverrun, m.qp, m.index, m.slot_addr, m.t,
                             fmt::format("QP {:#x} to GPU {}: SQ slot {} held WQE {} when the NIC fetched WQE {}: {} WQEs "
                                         "were posted past the {}-WQEBB ring before the NIC had fetched this one (rung by {})",
                                         m.qp.qpn, m.qp.ref.slot, m.slot, m.index + ahead, m.index, ahead, m.qp.sq_depth,
                                         m.ringer.describe())));
      return;
    }
    m_ctx.log.report(at_qp(kTornWqe, m.qp, m.index, m.slot_addr, m.t,
                           fmt::format("QP {:#x} to GPU {}: SQ slot {} held WQE index {} (opcode {:#x}) when the NIC "
                                       "fetched WQE {}: the WQE was not (fully) visible when its doorbell was rung by {}",
                                       m.qp.qpn, m.qp.ref.slot, m.slot, m.found16, m.opcode, expected16,
                                       m.ringer.describe())));
  }

  void on_nic_malformed_wqe(const nv::NicMalformedWqe& w) override {
    std::string detail;
    switch (w.kind) {
      case nv::NicMalformedWqe::kWrongQp:
        detail = fmt::format("QP {:#x}: WQE {} names QP {:#x} with {} segments", w.qp.qpn, w.index, w.named_qpn, w.ds);
        break;
      case nv::NicMalformedWqe::kInlineOverrun:
        detail = fmt::format("QP {:#x} WQE {}: inline length {} overruns the WQE", w.qp.qpn, w.index, w.inline_len);
        break;
      case nv::NicMalformedWqe::kUnknownOpcode:
        detail = fmt::format("QP {:#x} WQE {}: unknown opcode {:#x}", w.qp.qpn, w.index, w.opcode);
        break;
    }
    m_ctx.log.report(at_qp(kTornWqe, w.qp, w.index, w.addr, w.t, std::move(detail)));
  }
};

}  // namespace

SYMSIM_NVIDIA_CHECKER(NicSqSlotChecker, "nvidia/nic_sq_slot", 10,
                      "the SQ slot a NIC fetched held a later WQE (ring overrun) or one not fully written or parsable",
                      kSqOverrun, kTornWqe);

}  // namespace symsim
