// cq_overflow on a NIC: a CQE found its CQ full (the consumer index is checked: oi=0) and
// was lost.
#include <fmt/format.h>

#include "sim/checkers/cq_overflow.h"
#include "sim/checkers/nvidia/nvidia_checker.h"

namespace symsim {

namespace {

class NicCqOverflowChecker : public NvidiaChecker {
 public:
  using NvidiaChecker::NvidiaChecker;
  void on_nic_cqe_lost(const nv::NicCqeLost& l) override {
    m_ctx.log.report(at_qp(kCqOverflow, l.qp, l.index, l.entry_addr, l.t,
                           fmt::format("QP {:#x}: CQE {} for WQE {} found the {}-entry CQ full (consumer index {}); the "
                                       "CQE is lost",
                                       l.qp.qpn, l.cqe, l.index, l.qp.cq_depth, l.consumer)));
  }
};

}  // namespace

SYMSIM_NVIDIA_CHECKER(NicCqOverflowChecker, "nvidia/nic_cq_overflow", 40,
                      "a CQE found its CQ full (consumer index checked) and was lost", kCqOverflow);

}  // namespace symsim
