#pragma once
#include <deque>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/completion_knowledge.h"
#include "models/core/page_multimap.h"
#include "models/core/qp_table.h"

namespace symsim {

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
  void on_executed(const WqeRecord& r);

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
  void forget(uint32_t id);
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
  const CompletionKnowledge& m_known;  // shared (posts and reaps), fed before this checker's hooks
  std::vector<Ps> m_barriers;         // device barrier release times, in order
  int m_running = 0;                  // blocks running on every PE
  uint64_t m_launch = 0;
};

}  // namespace symsim
