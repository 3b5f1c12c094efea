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
  // Kept as fields and put in words only when a hang is reported. One entry per WQE (its data,
  // its CQE, or both: the CQE is the newer write) or per copy. The ring is written on every WQE
  // into a slot last written a ring ago (3 MiB on), so its bytes are the lines the history costs
  // the caches: 48 bytes (three lines for four entries; it was 56), by keeping what a report
  // reads and no more:
  // - a WQE's QP as the QP table's key (qp_table.h's qp_table_key: 24 bits of PE, 20 of slot,
  //   20 of QP index), 8 bytes for 12: every checker's per-QP state is keyed so already, and the key
  //   gives back the QpRef exactly within those widths (PEs: at most kMaxPes, 4096, at load);
  // - a WQE's byte count (32 bits in the WQE, WqeRecord::bytes), not its end;
  // - no "data" flag: a WQE that wrote no data keeps the range [0, 0), which overlaps no address
  //   (last_writer's test: 0 < a + bytes && a < 0 is false for every a), as the flag did;
  // - a copy's site as its return address (the shim's one emitter passes site_ref(CallSite):
  //   file null; site_index.h checks it).
  struct Write {
    enum Kind : uint8_t { kWqe, kCopy };
    uint64_t begin;  // the data's first byte (a CQE's are worked out when asked)
    Ps t;            // when the data landed or the copy was visible
    union {
      struct {
        uint64_t qp_key;  // qp_table_key(QpRef)
        uint32_t wqe, cqe;
        Ps cqe_ps;  // 0: no CQE
      } wqe;
      struct {
        uint64_t end;
        const void* pc;
        int core, pe;
      } copy;
    };
    uint32_t bytes;  // kWqe: the data's byte count ([begin, begin + bytes); 0 with begin 0: none)
    Kind kind;
    uint8_t opcode;  // kWqe
    uint64_t end() const { return kind == kCopy ? copy.end : begin + bytes; }
    QpRef qp() const { return qp_of_table_key(wqe.qp_key); }
    SiteRef site() const {
      SiteRef s;
      s.pc = copy.pc;
      return s;
    }
  };
  static_assert(sizeof(Write) == 48, "one WQE's history entry: three lines hold four");
  // The newest kKept entries: at least the newest kKept writes.
  static constexpr size_t kKept = 65536;
  // The slot of a new newest entry, for the caller to fill field by field (inline: one per WQE).
  Write& add() {
    Write* slot = &m_writes[m_added++ & (kKept - 1)];
    // The next entry's last line, fetched now (its first is this entry's last, or the line
    // after it): the ring is 3 MiB, so the line was last written far out of the caches.
    // From this slot, not the next index: one instruction (after the ring's last entry it
    // fetches a line past the ring, of no use; a prefetch never faults).
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(slot) + 2 * sizeof(Write) - 1), 1);
    return *slot;
  }
  std::pair<uint64_t, uint64_t> cqe_range(const Write& w) const;  // the bytes its CQE wrote
  std::string who(const Write& w, bool cqe) const;
  CheckerContext& m_ctx;
  // The newest kKept entries in a ring, allocated whole and not initialised: untouched pages
  // cost no memory, and an entry is written before it is read. Entry n (counting from 0) is at
  // n % kKept; the newest min(m_added, kKept) are kept. (One count, not a next slot and a size:
  // the entry's slot by a mask, and no size to saturate, on every WQE.)
  static_assert((kKept & (kKept - 1)) == 0, "a slot by a mask");
  std::unique_ptr<Write[]> m_writes{new Write[kKept]};
  uint64_t m_added = 0;  // entries ever added
  std::deque<FaultEvent> m_faults;
};

inline void WriteHistory::on_executed(const WqeRecord& r) {
  // A CQE's address is worked out only when a hang report asks (it costs a QP lookup).
  const bool data = r.status == 0 && r.opcode != udma::kFaa && r.opcode != udma::kCas;
  if (!data && r.cqe_ps == 0) return;
  Write& w = add();
  w.t = r.remote_write_ps;
  w.kind = Write::kWqe;
  w.opcode = r.opcode;
  w.wqe.qp_key = qp_table_key(r.qp);
  w.wqe.wqe = r.wqe_index;
  w.wqe.cqe = r.cqe_index;
  w.wqe.cqe_ps = r.cqe_ps;
  w.begin = data ? (r.opcode == udma::kRead ? r.local_va : r.remote_va) : 0;
  w.bytes = data ? r.bytes : 0;
}

}  // namespace symsim
