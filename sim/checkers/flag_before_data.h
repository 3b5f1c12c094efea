// flag_before_data on the Ascend side, judged by happens-before rather than by timing luck:
// a core that observed a flag (a landed write of at most 64 B) and then reads data that the same
// sender posted before that flag is safe only if the ordering rules put the data before the
// flag. Ordered means one of:
//  * same QP, and the flag WQE (or an SO WQE it is RO after, or a fenced WQE between) orders
//    every earlier WQE of the QP before it (models/ascend/udma_ordering.h);
//  * the sender knew the data complete (it reaped a CQE covering it: quiet, a poll) before
//    posting the flag.
// Otherwise the hazard is reported, `observed` when the data had not landed at the read.
// State is per QP (ordering epochs; posts and reaps are the shared CompletionKnowledge's) and per
// reader (the best flag seen per QP and per sender): each event costs O(1) amortised, plus the
// overlap query of a read.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/ascend/udma_ordering.h"
#include "models/ascend/wqe_layout.h"
#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/completion_knowledge.h"
#include "sim/checkers/interval_list.h"
#include "sim/checkers/per_core.h"

namespace symsim {

struct QpRecord;

inline constexpr HazardId kFlagBeforeData{"flag_before_data", "a flag was observed before the data it publishes"};

class FlagBeforeDataChecker : public Checker {
 public:
  explicit FlagBeforeDataChecker(CheckerContext& ctx) : Checker(ctx), m_known(*ctx.completions) {}
  struct QpOrder;
  // `s`: r's QP's part of its record (qp_record.h). Inline (the hub's execution): a landing
  // filed per WQE.
  void on_executed(const WqeRecord& r, QpOrder& s);
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) override;
  void on_device_barrier(Ps t) override;

  // A write WQE that lands in memory, with what orders it. One 64-byte line (the landing ring's
  // entry, written per WQE): its range is its own (IntervalList keeps no copy), and the order of
  // landings is their IntervalList id.
  struct alignas(64) Landing {
    static constexpr bool kKeepsRange = true;
    // What the rules and a report need of the WQE (not the whole WqeRecord: a landing is made
    // per WQE and a flag seen is copied per reader).
    struct Wqe {
      QpRef qp;
      uint32_t wqe_index = 0;
      uint32_t bytes = 0;
      Ps remote_write_ps = 0;
    } r;
    Ps post_ps = 0;             // when the sender posted it (its doorbell time if unknown)
    uint32_t ordered_below = 0;  // every WQE of the QP with a lower index lands before it
    bool has_order = false;      // ordered_below is meaningful
    uint64_t dst = 0;            // where it lands: [dst, dst + r.bytes)
    uint64_t begin() const { return dst; }
    uint64_t end() const { return dst + r.bytes; }
    mutable int seen_pe = -1;    // the last reader that saw it landed (reading it again is safe)
    mutable int seen_core = -1;
  };
  static_assert(sizeof(Landing) == 64, "a landing is one cache line");

  // What orders a QP's WQEs so far (kept in its QpRecord).
  struct QpOrder {  // 12 bytes (the flags after the indices: no padding between)
    uint32_t fence_bound = 0;  // index of the latest fenced WQE: everything before it is ordered
    uint32_t last_so = 0;      // index of the latest SO WQE
    bool fence_seen = false;
    bool so_seen = false;
  };

 private:
  // The flag a reader saw that orders the most, per QP and per sender PE.
  struct SeenOnQp {
    bool any = false;
    uint32_t max_index = 0;      // newest flag WQE index seen on the QP
    bool ordered = false;
    uint32_t ordered_below = 0;  // best ordering bound among them
  };
  struct SeenFromPe {
    bool any = false;
    Ps max_post_ps = 0;  // latest post time of a flag seen from this sender
    Landing::Wqe flag;   // that flag's WQE (for the message)
    Ps seen_ps = 0;
    SiteRef seen_site;
  };
  struct Reader {
    std::unordered_map<uint64_t, SeenOnQp> by_qp;
    std::unordered_map<int, SeenFromPe> by_pe;
  };

  void read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site);
  void judge(int pe, int core, Reader& rd, const Landing& data, const uint8_t* addr, Ps t, SiteRef site);
  void saw(Reader& rd, const Landing& flag, Ps t, SiteRef site);
  static uint64_t key(const QpRef& q);

  // A flag is a small write (a signal word, an atomic): a reader that sees a landed data block
  // (a Data-as-Flag block checks its own flags) has not been told anything about other data.
  static constexpr uint32_t kMaxFlagBytes = 64;
  // Scratch: the landings one read overlaps, with their ids (a larger id executed later).
  std::vector<std::pair<size_t, const Landing*>> m_hits;
  IntervalList<Landing> m_landings{2048};
  // When the sender knew data complete (a reap covering it); 0 when the record of it was
  // trimmed (treated as ordered: no report without proof).
  const CompletionKnowledge& m_known;
  PerCore<Reader> m_readers;
};

inline void FlagBeforeDataChecker::on_executed(const WqeRecord& r, QpOrder& s) {
  if (r.status != 0) return;
  const Ps post_ps = m_known.executed_post().t;
  // What orders earlier WQEs of the QP before this one (udma_ordering.h): a fence here or
  // before (a fenced WQE starts after every earlier one completed, and later ones start after
  // it), SO here, or RO here after an SO WQE.
  if (r.flags & udma::flag::kFence) s.fence_seen = true, s.fence_bound = r.wqe_index;
  bool has_order = s.fence_seen;
  uint32_t ordered_below = s.fence_seen ? s.fence_bound : 0;
  const uint8_t odr = r.flags & udma::kPlaceOrderMask;
  if (odr == udma::kOdrStrong) {
    has_order = true;
    ordered_below = r.wqe_index;
    s.so_seen = true;
    s.last_so = r.wqe_index;
  } else if (odr == udma::kOdrRelaxed && s.so_seen) {
    has_order = true;
    ordered_below = std::max(ordered_below, s.last_so + 1);
  }
  uint64_t dst;
  if (r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify ||
      r.opcode == udma::kFaa || r.opcode == udma::kCas) {
    dst = r.remote_va;
  } else if (r.opcode == udma::kRead) {
    dst = r.local_va;
  } else {
    return;
  }
  m_landings.add(dst, dst + r.bytes,
                 Landing{{r.qp, r.wqe_index, r.bytes, r.remote_write_ps}, post_ps, ordered_below, has_order, dst});
}

}  // namespace symsim
