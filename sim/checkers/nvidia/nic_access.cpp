// token_mismatch, bad_remote_addr and gm_out_of_bounds on a NIC: memory a WQE names that the
// NIC refused (a key that does not match the registration, bytes no registration holds, an
// unaligned atomic); the WQE completes with an access error.
#include <fmt/format.h>

#include "sim/checkers/completion_errors.h"
#include "sim/checkers/gm_out_of_bounds.h"
#include "sim/checkers/nvidia/nvidia_checker.h"
#include "models/nvidia/nvidia_system.h"

namespace symsim {

namespace {

class NicAccessChecker : public NvidiaChecker {
 public:
  using NvidiaChecker::NvidiaChecker;
  void on_nic_access_error(const nv::NicAccessError& e) override {
    const std::string at = nv::addr_text(e.addr);
    switch (e.kind) {
      case nv::NicAccessError::kRemoteKey:
        m_ctx.log.report(at_qp(kTokenMismatch, e.qp, e.index, e.addr, e.t,
                               fmt::format("QP {:#x} WQE {}: rkey {:#x} does not match GPU {}'s key {:#x} for {}", e.qp.qpn,
                                           e.index, e.key, e.gpu, e.region_key, at)));
        break;
      case nv::NicAccessError::kRemoteUnregistered:
        m_ctx.log.report(at_qp(kBadRemoteAddr, e.qp, e.index, e.addr, e.t,
                               fmt::format("QP {:#x} WQE {}: {} B at {} are not in memory GPU {} registered", e.qp.qpn,
                                           e.index, e.bytes, at, e.gpu)));
        break;
      case nv::NicAccessError::kAtomicUnaligned:
        m_ctx.log.report(at_qp(kBadRemoteAddr, e.qp, e.index, e.addr, e.t,
                               fmt::format("QP {:#x} WQE {}: atomic on unaligned {}", e.qp.qpn, e.index, at)));
        break;
      case nv::NicAccessError::kLocalUnregistered:
        m_ctx.log.report(at_qp(kGmOutOfBounds, e.qp, e.index, e.addr, e.t,
                               fmt::format("QP {:#x} WQE {}: local buffer {} B at {} (lkey {:#x}) is not memory GPU {} "
                                           "registered",
                                           e.qp.qpn, e.index, e.bytes, at, e.key, e.gpu)));
        break;
    }
  }
};

}  // namespace

SYMSIM_NVIDIA_CHECKER(NicAccessChecker, "nvidia/nic_access", 50,
                      "a WQE named memory its NIC refused: a wrong key, unregistered bytes, an unaligned atomic",
                      kTokenMismatch, kBadRemoteAddr, kGmOutOfBounds);

}  // namespace symsim
