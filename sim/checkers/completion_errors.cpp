#include "checkers/completion_errors.h"

#include <fmt/format.h>

#include "models/ascend/wqe_layout.h"

namespace symsim {

void CompletionErrorChecker::on_wqe_executed(const WqeRecord& r) {
  using namespace udma;
  const char* id = nullptr;
  switch (r.substatus) {
    case cqe_substatus::kTokenMismatch: id = "token_mismatch"; break;
    case cqe_substatus::kBadRemoteAddr: id = "bad_remote_addr"; break;
    case cqe_substatus::kUnreachable: id = "relay_unreachable"; break;
    default: return;
  }
  m_log.report({id, r.qp.pe, r.qp.qp, r.qp.slot, r.wqe_index, r.remote_va, r.fetch_ps,
                fmt::format("WQE opcode {} of {} bytes to PE {} completed with status {:#x} substatus {:#x}",
                            r.opcode, r.bytes, r.target_pe, r.status, r.substatus)});
}

void CompletionErrorChecker::on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) {
  m_log.report({"cq_overflow", q.pe, q.qp, q.slot, -1, 0, t,
                fmt::format("CQE {} written with only {} consumed: the CQ is full", produced, consumed)});
}

void CompletionErrorChecker::on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index, Ps t) {
  m_log.report({"doorbell_regression", q.pe, q.qp, q.slot, new_index, 0, t,
                fmt::format("SQ doorbell moved from {} to {}", old_index, new_index)});
}

}  // namespace symsim
