// Who last wrote an address, and when: remote writes and notify words landed by the engines,
// CQEs, copies by AIV cores, and faults that touched a QP. Kept bounded (the newest writes);
// read by the hang diagnosis ("what that address holds, and who last wrote it").
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>
#include <map>
#include <tuple>
#include <utility>
#include <string>

#include "sim/checkers/checker_context.h"
#include "sim/checkers/write_ring.h"
#include "models/ascend/wqe_layout.h"
#include "models/ascend/ascend_observer.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

class WriteHistory : public AscendObserver {
 public:
  explicit WriteHistory(CheckerContext& ctx) : m_ctx(ctx) {}
  void on_executed(const WqeRecord& r);  // inline: one entry per WQE
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_fault(const FaultEvent& f) override;

  // "PE 0 QP 0 WQE 3 (WRITE) landed it at 5.1 us", or "" when nothing recorded wrote it by `t`.
  std::string last_writer(const void* addr, uint64_t bytes, Ps t) const;
  // Faults recorded on `q` (e.g. a dropped doorbell), "" when none.
  std::string faults_on(const QpRef& q) const;
  // The last SQ doorbell a core stored for `q` (m_ctx.sites) and the last one the engine acted
  // on (the engine's QP keeps it: UdmaQp::sq_rung_value, sq_rung_ps).
  std::string doorbells(const QpRef& q) const;

 private:
  // Kept as fields and put in words only when a hang is reported: the newest 65,536 writes, one
  // entry per WQE (its data, its CQE, or both: the CQE is the newer write) or per copy, 32 bytes
  // each (write_ring.h).
  using Write = WriteRing::Entry;
  std::pair<uint64_t, uint64_t> cqe_range(const Write& w) const;  // the bytes its CQE wrote
  std::string who(const Write& w, bool cqe) const;
  CheckerContext& m_ctx;
  WriteRing m_writes;
  std::deque<FaultEvent> m_faults;
};

inline void WriteHistory::on_executed(const WqeRecord& r) {
  // A CQE's address is worked out only when a hang report asks (it costs a QP lookup).
  const bool data = r.status == 0 && r.opcode != udma::kFaa && r.opcode != udma::kCas;
  if (!data && r.cqe_ps == 0) return;
  m_writes.push_wqe(r, data ? (r.opcode == udma::kRead ? r.local_va : r.remote_va) : 0, data ? r.bytes : 0);
}

}  // namespace symsim
