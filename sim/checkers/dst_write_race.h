#pragma once
#include <deque>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/completion_knowledge.h"
#include "models/ascend/wqe_layout.h"
#include "models/core/page_multimap.h"
#include "models/core/qp_table.h"

namespace symsim {

struct QpRecord;

inline constexpr HazardId kDstWriteRace{"dst_write_race", "two writers landed on overlapping remote bytes with no ordering"};

// dst_write_race: two WQEs of different QPs land on overlapping bytes and the later one's
// poster did not know the earlier one complete when it posted (a reap by the same core, or a
// reap then a device barrier). Reported whether or not the writes overlapped in time this run
// (`observed`).
class DstWriteRaceChecker : public Checker {
 public:
  explicit DstWriteRaceChecker(CheckerContext& ctx) : Checker(ctx), m_known(*ctx.completions) {}
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_device_barrier(Ps t) override;
  struct QpLast;
  // `cached`: r's QP's part of its record (qp_record.h). Inline (the hub's execution): mostly
  // the QP's landing on the same range, replaced.
  void on_executed(const WqeRecord& r, QpLast& cached);

  // Kept in the QP's record: the landing its last WQE replaced or added, when no other QP's
  // landing overlapped it. While no landing has been added or forgotten since (`epoch` ==
  // m_epoch), the landings and ranges on its pages are the same, so a WQE of the same range
  // races with nothing and replaces that landing without visiting its pages.
  struct QpLast {
    uint64_t epoch = 0;  // 0: none
    uint32_t id = 0;
  };

 private:
  struct Landing {
    uint64_t begin, end;
    QpRef qp;
    uint32_t wqe;
    Ps doorbell_ps, complete_ps;
    int dst_pe;
    bool live;
    uint64_t launch;  // launch generation it was posted in (a launch boundary orders)
  };
  // Reports the first landing that r's landing on [begin, end) of PE `dst_pe` races with, then
  // files it (replacing its QP's landing on the same range) and updates `cached`.
  void judge_and_file(const WqeRecord& r, int dst_pe, uint64_t begin, uint64_t end, QpLast& cached);
  void forget(uint32_t id);
  // After each WQE: forget writes long complete, two pool entries per WQE, round robin.
  void sweep() {
    if (m_barriers.empty() && m_live_this_launch == m_live) {
      // None can be settled (no barrier, no landing of an earlier launch): the cursor moves as
      // the visit would, without reading the entries (a cache miss each), and only when it is
      // next read (catch_up): until then the pool keeps its size.
      m_unswept += 2;
      return;
    }
    sweep_visit();
  }
  void sweep_visit();
  // Makes the cursor's m_unswept moves (each: back to the start past the end, then one on),
  // before the cursor is read or the pool grows.
  void catch_up() {
    if (m_unswept == 0) return;
    const size_t n = m_pool.size();
    if (n != 0) {
      const size_t from = m_sweep >= n ? 0 : m_sweep;
      m_sweep = (from + (m_unswept - 1) % n) % n + 1;
    }
    m_unswept = 0;
  }
  // Whether the poster (`core` of PE `pe`, at `post_ps`) knew `e` complete.
  bool ordered_after(const Landing& e, int pe, int core, Ps post_ps) const;
  bool settled(const Landing& e) const;  // every later post anywhere is ordered after it
  // The newest landing per (range, QP) on each destination PE, kept in one pool and filed
  // under every 4 KiB page it touches (an earlier write of the same QP to the same bytes is
  // ordered before it anyway). A WQE visits only the landings on its own pages.
  std::vector<Landing> m_pool;
  std::vector<uint32_t> m_free;
  std::vector<PageMultimap<uint32_t>> m_pages;  // by destination PE
  // Landings complete and settled are forgotten by a sweep that looks at two pool entries per WQE.
  size_t m_sweep = 0;
  uint64_t m_unswept = 0;  // the cursor's moves not made yet (catch_up)
  // Live landings, and those of them filed in this launch: while they are equal and no device
  // barrier came, no landing can be settled, and the sweep reads none.
  size_t m_live = 0;
  size_t m_live_this_launch = 0;
  uint64_t m_epoch = 1;  // moves on when a landing is added or forgotten (QpLast)
  const CompletionKnowledge& m_known;  // shared (posts and reaps), fed before this checker's hooks
  std::vector<Ps> m_barriers;         // device barrier release times, in order
  int m_running = 0;                  // blocks running on every PE
  uint64_t m_launch = 0;
};

inline void DstWriteRaceChecker::on_executed(const WqeRecord& r, QpLast& cached) {
  if (r.status != 0) return;
  int dst_pe = -1;
  uint64_t begin = 0, end = 0;
  if (r.opcode == udma::kWrite || r.opcode == udma::kWriteImm || r.opcode == udma::kWriteWithNotify) {
    dst_pe = r.target_pe, begin = r.remote_va, end = r.remote_va + r.bytes;
  } else if (r.opcode == udma::kRead) {
    dst_pe = r.qp.pe, begin = r.local_va, end = r.local_va + r.bytes;
  } else {
    return;
  }
  if (dst_pe < 0) return;
  Landing* mine = cached.epoch == m_epoch ? &m_pool[cached.id] : nullptr;
  if (mine && mine->begin == begin && mine->end == end && mine->dst_pe == dst_pe) {
    if (mine->launch != m_launch) ++m_live_this_launch;
    *mine = {begin, end, r.qp, r.wqe_index, r.doorbell_ps, r.complete_ps, dst_pe, true, m_launch};  // races with nothing
  } else {
    judge_and_file(r, dst_pe, begin, end, cached);
  }
  sweep();
}

}  // namespace symsim
