// Who last wrote an address, and when: remote writes and notify words landed by the engines,
// CQEs, copies by AIV cores, and faults that touched a QP. Kept bounded (the newest writes);
// read by the hang diagnosis ("what that address holds, and who last wrote it").
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include <map>
#include <tuple>
#include <utility>
#include <string>

#include "sim/checkers/checker_context.h"
#include "models/ascend/wqe_layout.h"
#include "models/ascend/ascend_observer.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

class WriteHistory : public AscendObserver {
 public:
  // The ring is reserved whole: untouched pages cost no memory, and filling it moves nothing.
  explicit WriteHistory(CheckerContext& ctx) : m_ctx(ctx) { m_writes.reserve(kKept); }
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
  // Kept as fields and put in words only when a hang is reported. One entry per WQE (its data,
  // its CQE, or both: the CQE is the newer write) or per copy, 56 bytes: the ring is written on
  // every WQE, so its lines are what the history costs the caches.
  struct Write {
    enum Kind : uint8_t { kWqe, kCopy };
    uint64_t begin = 0, end = 0;  // the data's bytes (a CQE's are worked out when asked)
    Ps t = 0;                     // when the data landed or the copy was visible
    int pe = 0;
    Kind kind = kWqe;
    uint8_t opcode = 0;
    bool data = false;  // kWqe: [begin, end) was written at t
    union {
      struct {
        int slot, qp;
        uint32_t wqe, cqe;
        Ps cqe_ps;  // 0: no CQE
      } wqe;
      struct {  // a SiteRef, field by field (the union needs trivial members)
        const char* file;
        const void* pc;
        int line;
        int core;
      } copy;
    };
    QpRef qp() const { return {pe, wqe.slot, wqe.qp}; }
    SiteRef site() const { return {copy.file, copy.line, copy.pc}; }
  };
  static_assert(sizeof(Write) == 56, "one WQE's history entry: keep it under a cache line");
  // The newest kKept entries: at least the newest kKept writes.
  static constexpr size_t kKept = 65536;
  void add(const Write& w) {  // inline: one per WQE
    if (m_writes.size() < kKept) {
      m_writes.push_back(w);
    } else {
      Write* slot = &m_writes[m_next];
      *slot = w;
      if (++m_next == kKept) m_next = 0;
      // The next entry's last line, fetched now (its first is this entry's last, or the line
      // after it): the ring is 3.5 MiB, so the line was last written far out of the caches.
      // From this slot, not the next index: one instruction (after the ring's last entry it
      // fetches a line past the ring, of no use; a prefetch never faults).
      __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(slot) + 2 * sizeof(Write) - 1), 1);
    }
  }
  std::pair<uint64_t, uint64_t> cqe_range(const Write& w) const;  // the bytes its CQE wrote
  std::string who(const Write& w, bool cqe) const;
  CheckerContext& m_ctx;
  // The newest kKept entries in a ring (m_next: where the next one goes): no allocation once it
  // is full.
  std::vector<Write> m_writes;
  size_t m_next = 0;
  std::deque<FaultEvent> m_faults;
};

inline void WriteHistory::on_executed(const WqeRecord& r) {
  Write w;
  w.t = r.remote_write_ps;
  w.pe = r.qp.pe;
  w.opcode = r.opcode;
  w.wqe = {r.qp.slot, r.qp.qp, r.wqe_index, r.cqe_index, r.cqe_ps};
  if (r.status == 0) {
    if (r.opcode == udma::kRead) {
      w.begin = r.local_va;
      w.end = r.local_va + r.bytes;
      w.data = true;
    } else if (r.opcode != udma::kFaa && r.opcode != udma::kCas) {
      w.begin = r.remote_va;
      w.end = r.remote_va + r.bytes;
      w.data = true;
    }
  }
  // A CQE's address is worked out only when a hang report asks (it costs a QP lookup).
  if (w.data || r.cqe_ps != 0) add(w);
}

}  // namespace symsim
