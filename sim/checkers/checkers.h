// The hazard rules, one class per hazard id (implemented in <id>.cpp). Each is an observer
// attached through the model hooks; none of them changes what the models do. Rules that can
// only judge once the run is over (completions never polled) do it in finish().
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "checkers/checker_context.h"
#include "checkers/completion_knowledge.h"
#include "checkers/interval_list.h"
#include "checkers/per_core.h"
#include "models/core/page_multimap.h"
#include "models/core/qp_table.h"
#include "models/core/observer.h"

namespace symsim {

class Checker : public Observer {
 public:
  explicit Checker(CheckerContext& ctx) : m_ctx(ctx) {}
  // The run ended at `end_ps`; `completed`: every host program finished (no hang).
  virtual void finish(Ps end_ps, bool completed) {}

 protected:
  CheckerContext& m_ctx;
};

using QpKey = std::tuple<int, int, int>;  // (pe, slot, qp)
inline QpKey qp_key(const QpRef& q) { return {q.pe, q.slot, q.qp}; }

// sq_overrun: a doorbell published WQEs past the ring before the engine read the old ones.
class SqOverrunChecker : public Checker {
 public:
  using Checker::Checker;
  void on_sq_overrun(const QpRef& q, uint32_t producer, uint32_t consumed, uint32_t depth, Ps t) override;
};

// doorbell_regression: a doorbell moved the producer index backwards.
class DoorbellRegressionChecker : public Checker {
 public:
  using Checker::Checker;
  void on_doorbell_regression(const QpRef& q, uint32_t old_index, uint32_t new_index, Ps t) override;
};

// torn_wqe: the engine fetched a WQE whose bytes an MTE3 copy had not yet landed.
class TornWqeChecker : public Checker {
 public:
  using Checker::Checker;
  void on_copy(const CopyRecord& c) override;
  void on_wqe_fetched(const QpRef& q, uint32_t wqe, const uint8_t* slot, uint32_t bytes, Ps t) override;

 private:
  std::vector<std::vector<CopyRecord>> m_pending;  // by ring PE: copies into its rings not yet landed
};

// cq_overflow: a CQE had no room in its CQ (the QP then enters the error state).
class CqOverflowChecker : public Checker {
 public:
  using Checker::Checker;
  void on_cq_overflow(const QpRef& q, uint32_t produced, uint32_t consumed, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;

 private:
  struct Pending {
    uint32_t produced, consumed;
    Ps t;
  };
  std::map<QpKey, Pending> m_pending;
};

// token_mismatch, bad_remote_addr, relay_unreachable: the engine's own checks failed.
class CompletionErrorChecker : public Checker {
 public:
  using Checker::Checker;
  void on_wqe_fetched(const QpRef& q, uint32_t wqe, const uint8_t* slot, uint32_t bytes, Ps t) override;
  void on_fault(const FaultEvent& f) override;
  void on_wqe_executed(const WqeRecord& r) override;

 private:
  // The WQE the engine fetched last: it executes it at once (same call), so its slot still
  // holds the bytes and only an error needs them decoded.
  struct Fetched {
    QpRef qp{-1, -1, -1};
    uint32_t wqe = 0;
    const uint8_t* slot = nullptr;
    uint32_t bytes = 0;
  };
  Fetched m_fetched;
  std::set<std::tuple<int, int, int, uint32_t>> m_injected;  // error CQEs a fault made
};

// cqe_error_unchecked: an error CQE never polled, or consumed without the kernel stopping.
class CqeErrorUncheckedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cqe_reaped(const QpRef& q, uint32_t index, const uint8_t* cqe, int core, Ps t) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer, Ps t) override;
  void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) override;
  void finish(Ps end_ps, bool completed) override;

 private:
  struct ErrorCqe {
    QpRef qp;
    uint32_t cqe_index;
    uint32_t wqe_index;
    uint8_t status, substatus;
    Ps cqe_ps;
    Ps consumed_ps = 0;  // CQ doorbell passed it (0: never)
    bool reaped = false;  // polled by the SHMEM API (which traps)
  };
  std::vector<ErrorCqe> m_errors;  // in the order written (the order of the reports)
  // Per QP, its error CQEs (indices into m_errors, CQE order) and how many of them the CQ
  // doorbell has passed: a poll or a doorbell visits only its own QP's unconsumed errors.
  struct QpErrors {
    std::vector<size_t> errors;
    size_t consumed = 0;
    Ps first_error_ps = 0;
  };
  QpTable<QpErrors> m_qps;
  std::map<int, Ps> m_last_trap;  // per PE
};

// unreaped_completions: CQEs a kernel asked for and never polled by the end of the run.
class UnreapedCompletionsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer, Ps t) override;
  void on_kernel_trap(int pe, int core, const char* kernel, const std::string& why, Ps t) override;
  void finish(Ps end_ps, bool completed) override;

 private:
  struct QpCompletions {
    QpRef qp;
    uint64_t requested = 0;
    uint32_t consumed = 0;
    bool errors = false;
    // Recent (CQE index, WQE index), oldest first from `head`: the newest 4096 not yet returned.
    // The front is dropped by moving `head` and compacted when half the vector is dead, so a
    // CQE costs O(1) amortised and nothing is allocated once the vector is warm.
    std::vector<std::pair<uint32_t, uint32_t>> wqe_of_cqe;
    size_t head = 0;
  };
  QpTable<QpCompletions> m_qps;
  std::set<int> m_trapped;
};

// qp_multi_producer: two cores of one launch post to (or ring) the same QP; `observed` when
// their producing spans overlapped in time this run (their head updates could interleave).
class QpMultiProducerChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_wqe_post(const PostRecord& p) override;
  void on_doorbell_store(const QpRef& q, bool cq, uint32_t value, int core, Ps t, SiteRef site) override;

 private:
  void producer(const QpRef& q, int core, uint32_t wqe, Ps t, SiteRef site, const char* how);
  // A core producing on a QP in this launch: from its first post or doorbell to its latest.
  struct Span {
    int core;
    SiteRef site;
    Ps first_ps, last_ps;
  };
  struct Producers {
    std::vector<Span> cores;  // in order of their first post (one, unless the hazard is there)
  };
  struct PeLaunch {
    int running = 0;                  // blocks of the PE's current launch still running
    QpTable<Producers> producers;     // producers of each QP in this launch
  };
  std::vector<PeLaunch> m_pes;                         // by PE
  std::set<std::tuple<QpKey, int, bool>> m_reported;  // (QP, second core, observed)
};

// src_reuse_before_completion: a put's source rewritten after the put was posted and before
// its PE knew it complete (a reap covering it: quiet, a CQE poll, a CQ doorbell). Reported
// whether or not the engine had already read the source; `observed` when the rewrite fell
// while the put was still in flight.
class SrcReuseChecker : public Checker {
 public:
  explicit SrcReuseChecker(CheckerContext& ctx) : Checker(ctx), m_known(*ctx.completions) {}
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_copy(const CopyRecord& c) override;
  void on_gm_store(const StoreRecord& s) override;

 private:
  // A write by PE `pe` (core -1: its host) to [dst, dst + bytes) at `t`.
  struct Rewrite {
    int pe, core;
    const uint8_t* dst;
    uint64_t bytes;
    Ps t;
    SiteRef site;
    const char* what;
  };
  // What a judgement and its report need of a put (a window keeps two: not whole WqeRecords).
  struct Put {
    QpRef qp;
    uint32_t wqe_index, bytes;
    int target_pe;
    uint8_t opcode;
    uint64_t local_va;
    Ps doorbell_ps;
  };
  // Puts of one source on one QP that its PE has not yet known complete, from the first to
  // the last: a reap covering `last` settles them all (CQEs of a QP come in order).
  struct Window {
    Put first, last;
    Ps complete_ps;  // the latest completion among them
  };
  void on_rewrite(const Rewrite& w);
  void judge(const Window& win, const Rewrite& w);
  Ps posted_ps(const Put& r) const;
  bool settled(const Put& r, Ps t) const { return m_known.known_complete_ps(r.qp, r.wqe_index) <= t; }
  void prune();
  // Windows per PE and (source address, length, slot, QP). One map per PE (a copy only meets
  // its own PE's sources), ordered by address so a copy only visits the sources it may overlap.
  using SourceKey = std::tuple<uint64_t, uint32_t, int, int>;
  using Sources = std::map<SourceKey, Window>;
  std::vector<Sources> m_sources;  // by PE
  uint64_t m_max_source_bytes = 0;
  // Per PE, the address range every source so far lies in: most copies (into receive buffers,
  // clears) fall outside it and skip the map.
  std::vector<std::pair<uint64_t, uint64_t>> m_source_span;
  // When a window may have completed, earliest first (prune checks the entry itself). A
  // completed window stays until its PE knows it complete or its launch ends.
  using Expiry = std::tuple<Ps, int, SourceKey>;
  std::priority_queue<Expiry, std::vector<Expiry>, std::greater<Expiry>> m_expiry;
  const CompletionKnowledge& m_known;  // shared, fed before this checker's hooks
  std::vector<int> m_running;  // blocks running, by PE
  // Recent GM writes by cores, per PE, in the order the cores made them. A core's copy starts
  // at most `m_max_lead_ps` after the time it was made, so the writes that can start after a
  // doorbell were all made after (doorbell - lead): a WQE scans that tail only.
  struct Write {
    const uint8_t* dst;
    uint64_t bytes;
    Ps issue_ps, made_ps;
    int core;
    SiteRef site;
    const char* what;
  };
  std::vector<std::deque<Write>> m_writes;  // by PE
  Ps m_max_lead_ps = 0;
};

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
  void on_wqe_executed(const WqeRecord& r) override;

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

// torn_block_consumed: a reader consumed a unit whose parts had not all landed.
class TornBlockConsumedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_fault(const FaultEvent& f) override;
  void on_copy(const CopyRecord& c) override;
  void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) override;

 private:
  struct Torn {
    FaultEvent f;
    std::set<std::pair<int, int>> saw_early;  // (pe, core) that read the landed part
    bool reported = false;
  };
  void read(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site);
  std::vector<Torn> m_torn;
};

// pipe_sync_missing: a pipe used bytes another pipe of the core wrote (or still read) with
// no SetFlag/WaitFlag or PipeBarrier between them.
constexpr int kPipes = 4;  // AIV pipes S, V, MTE2, MTE3 (models/ascend/aiv_core.h)

class PipeSyncMissingChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_copy(const CopyRecord& c) override;
  void on_pipe_sync(const PipeSyncRecord& s) override;

 private:
  struct Access {
    const uint8_t* begin;
    const uint8_t* end;
    uint64_t seq;
    bool write;
    unsigned reported = 0;  // bit per pipe already reported against it (one report per pair)
    SiteRef site;
  };
  struct PendingSet {
    std::tuple<int, int, int> event;  // (src, dst, id)
    uint64_t seq;                     // access sequence number at the SetFlag
  };
  // Ordering only ever covers a prefix of a pipe's accesses: ordered[x][q] is the sequence
  // number below which every access of pipe x is ordered before pipe q. A copy on q then
  // scans only the unordered tail of each other pipe, and ordered heads are dropped.
  struct Core {
    std::array<std::deque<Access>, kPipes> by_pipe;  // oldest first
    std::array<std::array<uint64_t, kPipes>, kPipes> ordered{};
    uint64_t seq = 0;
    std::vector<PendingSet> set_seq;  // a few at a time: a list beats a map
  };
  static void drop_ordered(Core& k);
  PerCore<Core> m_cores;
};

// event_id_unpaired: a SetFlag never waited, a WaitFlag with nothing set, an id reused.
class EventIdUnpairedChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_pipe_sync(const PipeSyncRecord& s) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;

 private:
  PerCore<std::vector<PipeSyncRecord>> m_pending;  // SetFlags not yet waited
};

// ub_out_of_bounds: a copy touching Unified Buffer bytes outside the core's allocations.
class UbOutOfBoundsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_ub_layout(int pe, int core, const uint8_t* ub, uint64_t allocated, uint64_t ub_bytes) override;
  void on_copy(const CopyRecord& c) override;

 private:
  struct Layout {
    const uint8_t* ub = nullptr;
    uint64_t allocated = 0, ub_bytes = 0;
  };
  void check(const CopyRecord& c, const uint8_t* p, uint64_t bytes, const char* side);
  PerCore<Layout> m_layouts;
};

// gm_out_of_bounds: a copy or DMA outside every allocation and registered region.
class GmOutOfBoundsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_alloc(int pe, const char* kind, const uint8_t* p, uint64_t bytes) override;
  void on_copy(const CopyRecord& c) override;
  void on_wqe_executed(const WqeRecord& r) override;
  struct Alloc {
    const uint8_t* begin;
    const uint8_t* end;
    const char* kind;
  };

 private:
  // The allocation holding [p, p+len), or null; `near` gets the one p falls in or after.
  bool inside(const uint8_t* p, uint64_t len, std::string* near) const;
  std::vector<Alloc> m_allocs;  // sorted by begin: searched on every copy and WQE
  // The allocations found last (a core's copies go back and forth between a few buffers).
  mutable std::pair<const uint8_t*, const uint8_t*> m_recent[2] = {};
};

// unaligned_access: a DataCopy that breaks the 32 B rules (length, UB address).
class UnalignedAccessChecker : public Checker {
 public:
  using Checker::Checker;
  void on_copy(const CopyRecord& c) override;
};

// core_write_race: two cores of a PE write overlapping GM between two barriers; `observed`
// when both writes were in flight at once this run.
class CoreWriteRaceChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_device_barrier(Ps t) override;
  void on_copy(const CopyRecord& c) override;

 private:
  struct Write {
    const uint8_t* begin;
    const uint8_t* end;
    int core;
    uint64_t seq;  // order of the writes, to name the earliest conflicting one
    SiteRef site;
    Ps issue_ps, visible_ps;  // in flight from issue until visible
    bool operator==(const Write& o) const { return seq == o.seq; }
  };
  // A PE's GM writes since the last barrier, filed under every 4 KiB page they touch.
  struct PeWrites {
    PageMultimap<Write> pages;
    uint64_t seq = 0;
  };
  std::vector<int> m_running;      // blocks running, by PE
  std::vector<PeWrites> m_writes;  // by PE
};

// Hazards the models found themselves (on_model_hazard) go to the log as they are.
class ModelHazardForwarder : public Checker {
 public:
  using Checker::Checker;
  void on_model_hazard(const ModelHazard& h) override;
};

}  // namespace symsim
