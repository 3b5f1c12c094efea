// token_mismatch, bad_remote_addr, relay_unreachable: the engine checked the WQE and
// completed it with an error CQE. Error CQEs a fault injected are not kernel hazards.
#include <fmt/format.h>

#include "sim/checkers/completion_errors.h"
#include "models/ascend/ring.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"
#include "models/platform/ascend_system.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(CompletionErrorChecker, "completion_errors", 50, "the engine's own checks failed and it wrote an error CQE", kTokenMismatch, kBadRemoteAddr, kRelayUnreachable);

namespace {
std::tuple<int, int, int, uint32_t> wqe_key(const QpRef& q, uint32_t wqe) { return {q.pe, q.slot, q.qp, wqe}; }
}  // namespace

// The token WQE `r` carries, read from its QP's send queue as the engine fetched it (the engine
// executes a WQE in the call that fetched it: its slots still hold it), not kept from a hook on
// every fetch. A second WQEBB past the ring's end is not read (the fetch hands over one).
uint32_t CompletionErrorChecker::token_of(const WqeRecord& r) const {
  const UdmaQp* q = m_ctx.engine_qp(r.qp);
  if (!q || !q->sq_base || q->sq_depth_bb == 0) return 0;
  const uint8_t* first = q->sq_base + uint64_t{udma::ring_slot(r.wqe_index, q->sq_depth_bb)} * udma::kWqebbBytes;
  const uint8_t* second = q->sq_base + uint64_t{udma::ring_slot(r.wqe_index + 1, q->sq_depth_bb)} * udma::kWqebbBytes;
  const bool two = udma::bb_count(udma::peek_opcode(first)) > 1 && second == first + udma::kWqebbBytes;
  return udma::decode(first, two ? second : nullptr).rmt_token_value;
}

void CompletionErrorChecker::on_fault(const FaultEvent& f) {
  if (f.wqe >= 0) m_injected.insert(wqe_key(f.qp, static_cast<uint32_t>(f.wqe)));
}

void CompletionErrorChecker::on_executed(const WqeRecord& r) {
  const HazardId* id = nullptr;
  switch (r.substatus) {
    case udma::cqe_substatus::kTokenMismatch: id = &kTokenMismatch; break;
    case udma::cqe_substatus::kBadRemoteAddr: id = &kBadRemoteAddr; break;
    case udma::cqe_substatus::kUnreachable: id = &kRelayUnreachable; break;
    default: return;
  }
  if (r.status == udma::cqe_status::kFlushed || m_injected.count(wqe_key(r.qp, r.wqe_index))) return;
  Hazard h = m_ctx.at_wqe(*id, r.qp, r.wqe_index, r.fetch_ps);
  h.addr = m_ctx.addr(r.remote_va);
  const std::string what = fmt::format("WQE {} ({} of {} bytes)", r.wqe_index, opcode_text(r.opcode), r.bytes);
  const std::string outcome = fmt::format("completed with an error CQE ({}) and the QP entered the error state",
                                          substatus_text(r.status, r.substatus));
  if (r.substatus == udma::cqe_substatus::kTokenMismatch) {
    const uint32_t token = token_of(r);
    const uint32_t need = r.target_pe >= 0 ? m_ctx.sys.memory(r.target_pe).heap_token : 0;
    h.detail = fmt::format("{} carries token {:#x} but PE {}'s memory was registered with token {:#x}: {} (fill "
                           "rmt_token_value from the QP's memory info)",
                           what, token, r.target_pe, need, outcome);
  } else if (r.substatus == udma::cqe_substatus::kBadRemoteAddr) {
    h.detail = fmt::format("{} targets {} on PE {}, outside its registered symmetric heap: {} (use an address from "
                           "aclshmem_malloc, translated by aclshmem_ptr)",
                           what, h.addr, r.target_pe, outcome);
  } else {
    const UdmaQp* u = m_ctx.engine_qp(r.qp);
    h.detail = fmt::format("{} names an endpoint the QP toward PE {} cannot reach (EID decodes to PE {}): {}", what,
                           u ? u->target_pe : r.qp.slot, r.target_pe, outcome);
  }
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim
