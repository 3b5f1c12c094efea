// The per-WQE hooks (post, doorbell store, fetch, execution, reap, CQ doorbell; not the SQ
// doorbell: the one the engine last acted on is the engine's QP's, UdmaQp::sq_rung_value),
// the copies and the pipe syncs of every Ascend rule, behind one observer: the models' hook
// dispatch calls it once per event, and it calls the enabled rules directly (no virtual call,
// no listener list per rule), in the order they were attached before (the call-site index, the
// write history, the shared completion record, then the rules by rank). Rules that act only on
// a rare event (an error CQE, a CQ overflow, a CQ doorbell store) are skipped by a compare here.
// A copy's two ends are classified here once (UB, queue ring, ...) for the about ten rules that
// hear it; a SetFlag's or WaitFlag's pending SetFlag is looked up once for the two rules that
// need it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/checkers/checker.h"
#include "sim/checkers/checker_set.h"

namespace symsim {

class CoreWriteRaceChecker;
class CqOverflowChecker;
class CompletionErrorChecker;
class CqeErrorUncheckedChecker;
class UnreapedCompletionsChecker;
class QpMultiProducerChecker;
class SrcReuseChecker;
class DstWriteRaceChecker;
class EventIdUnpairedChecker;
class FlagBeforeDataChecker;
class GmOutOfBoundsChecker;
class PipeSyncMissingChecker;
class TornBlockConsumedChecker;
class TornWqeChecker;
class UbOutOfBoundsChecker;
class UnalignedAccessChecker;

static_assert(sizeof(QpRef) == 12 && offsetof(QpRef, slot) == 4 && offsetof(QpRef, qp) == 8,
              "CheckerSet::Hub::qp compares a QpRef as two words");

class CheckerSet::Hub : public AscendObserver {
 public:
  // Null members are not attached (their rules are off).
  Hub(const CheckerContext& ctx, QpRecords& qps, SiteIndex* sites, WriteHistory* history,
      CompletionKnowledge* completions, const std::vector<std::unique_ptr<Checker>>& checkers);
  bool empty() const;

  void on_wqe_post(const PostRecord& p) override;
  void on_doorbell_store(const QpRef& q, bool cq, uint32_t value, int core, Ps t, SiteRef site) override;
  void on_wqe_fetched(const QpRef& q, uint32_t wqe_index, const uint8_t* slot, uint32_t bytes, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cqe_reaped(const QpRef& q, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) override;
  void on_copy(const CopyRecord& c) override;
  void on_pipe_sync(const PipeSyncRecord& s) override;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;

 private:
  // A WQE's post and doorbell store come in a row for one QP: remember the QP looked up last
  // (the table's entries never move); the table lookup is out of line (the engine serves the
  // QPs in turn: an execution's QP is mostly not the last one).
  QpRecord& qp(const QpRef& q) {
    if (is_last(q)) return *m_last;
    return look_up(q);
  }
  QpRecord& look_up(const QpRef& q);
  // The execution's: the engine serves the QPs in turn, so its QP is mostly not the last one. A
  // small direct-mapped table of records by QP answers it inline (the table lookup is a call,
  // about 45 instructions a WQE); a miss fills its slot from the table.
  QpRecord& qp_of_execution(const QpRef& q) {
    if (is_last(q)) return *m_last;
    // QpTable's key, mixed: put-heavy's 32 QPs fall in 32 different slots of 64 (a cheaper mix
    // of the two words collided for a few).
    const uint64_t key = QpTable<QpRecord>::pack(q);
    Recent& e = m_recent[(key * 0x9E3779B97F4A7C15ull) >> (64 - kRecentBits)];
    if (e.key == key) {
      remember(q, e.rec);
      return *e.rec;
    }
    QpRecord& rec = look_up(q);
    e = {key, &rec};
    return rec;
  }
  // The same for an event that makes no record (a reap): a core's credit-check reap comes
  // between its doorbell store and its next post of the same QP, so it is mostly m_last too.
  QpRecord* find(const QpRef& q) { return is_last(q) ? m_last : find_in_table(q); }
  QpRecord* find_in_table(const QpRef& q);
  // Compared as two words (pe and slot, then qp): no QP has pe INT_MIN, so no test of m_last.
  // (As one compare of the two words' xors or'ed, the SQ doorbell and the doorbell store took
  // 1.5 instructions more each.)
  bool is_last(const QpRef& q) const {
    uint64_t pe_slot;
    uint32_t index;
    std::memcpy(&pe_slot, &q, sizeof pe_slot);
    std::memcpy(&index, reinterpret_cast<const char*>(&q) + offsetof(QpRef, qp), sizeof index);
    return pe_slot == m_last_pe_slot && index == m_last_qp;
  }
  void remember(const QpRef& q, QpRecord* rec) {
    m_last = rec;
    std::memcpy(&m_last_pe_slot, &q, sizeof m_last_pe_slot);
    std::memcpy(&m_last_qp, reinterpret_cast<const char*>(&q) + offsetof(QpRef, qp), sizeof m_last_qp);
  }
  void log_cqe_for_unreaped(const WqeRecord& r, QpRecord& rec);

  const CheckerContext& m_ctx;
  QpRecords& m_qps;  // looked up once per event, handed to the members that keep per-QP state
  QpRecord* m_last = nullptr;
  uint64_t m_last_pe_slot = uint64_t{0x80000000u};  // {pe INT_MIN, slot 0}: no QP yet
  uint32_t m_last_qp = 0;
  struct Recent {
    uint64_t key = ~uint64_t{0};  // no QP's key is all ones (QpTable): empty
    QpRecord* rec = nullptr;
  };
  static constexpr unsigned kRecentBits = 6;  // 64 slots, 1 KiB (128 found no more)
  std::array<Recent, size_t{1} << kRecentBits> m_recent;
  SiteIndex* m_sites;
  WriteHistory* m_history;
  CompletionKnowledge* m_completions;
  // Whether any member keeps a part of the record for the event (one test, not one per member).
  bool m_post_needs_record = false;
  bool m_bell_store_needs_record = false;
  bool m_execution_needs_record = false;
  // By rank (sim/catalog): the order the rules report in when one event trips several.
  TornWqeChecker* m_torn_wqe = nullptr;                   // 30
  CqOverflowChecker* m_cq_overflow = nullptr;             // 40
  CompletionErrorChecker* m_completion_errors = nullptr;  // 50
  CqeErrorUncheckedChecker* m_cqe_unchecked = nullptr;    // 60
  UnreapedCompletionsChecker* m_unreaped = nullptr;       // 70
  QpMultiProducerChecker* m_multi_producer = nullptr;     // 80
  SrcReuseChecker* m_src_reuse = nullptr;                 // 90
  DstWriteRaceChecker* m_dst_race = nullptr;              // 100
  TornBlockConsumedChecker* m_torn_block = nullptr;       // 110
  FlagBeforeDataChecker* m_flag_before_data = nullptr;    // 120
  PipeSyncMissingChecker* m_pipe_sync = nullptr;          // 130
  EventIdUnpairedChecker* m_event_id = nullptr;           // 140
  UbOutOfBoundsChecker* m_ub_bounds = nullptr;            // 150
  GmOutOfBoundsChecker* m_gm_bounds = nullptr;            // 160
  UnalignedAccessChecker* m_unaligned = nullptr;          // 170
  CoreWriteRaceChecker* m_core_race = nullptr;            // 180
};

}  // namespace symsim
