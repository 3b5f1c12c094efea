// doorbell_regression on a NIC: a doorbell rang a 16-bit producer index behind the one rung
// before (the NIC ignores it; the WQEs it meant to publish are never fetched).
#include <fmt/format.h>

#include "sim/checkers/doorbell_regression.h"
#include "sim/checkers/nvidia/nvidia_checker.h"

namespace symsim {

namespace {

class NicDoorbellRegressionChecker : public NvidiaChecker {
 public:
  using NvidiaChecker::NvidiaChecker;
  void on_nic_doorbell_back(const nv::NicDoorbellBack& d) override {
    m_ctx.log.report(at_qp(kDoorbellRegression, d.qp, d.rung, 0, d.t,
                           fmt::format("doorbell of QP {:#x} moved the producer index back from {} to {} (ring the "
                                       "unmasked, monotonic producer index)",
                                       d.qp.qpn, d.rung & 0xffff, d.index16)));
  }
};

}  // namespace

SYMSIM_NVIDIA_CHECKER(NicDoorbellRegressionChecker, "nvidia/nic_doorbell_regression", 20,
                      "a doorbell rang a producer index behind the one rung before", kDoorbellRegression);

}  // namespace symsim
