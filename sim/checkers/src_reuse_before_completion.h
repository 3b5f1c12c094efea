#pragma once
#include <deque>
#include <map>
#include <queue>
#include <tuple>
#include <vector>
#include <utility>

#include "catalog/hazard_id.h"
#include "checkers/checker.h"
#include "checkers/completion_knowledge.h"

namespace symsim {

inline constexpr HazardId kSrcReuseBeforeCompletion{"src_reuse_before_completion", "a put's source was rewritten before its completion"};

// src_reuse_before_completion: a put's source rewritten after the put was posted and before
// its PE knew it complete (a reap covering it: quiet, a CQE poll, a CQ doorbell). Reported
// whether or not the engine had already read the source; `observed` when the rewrite fell
// while the put was still in flight.
class SrcReuseChecker : public Checker {
 public:
  explicit SrcReuseChecker(CheckerContext& ctx) : Checker(ctx), m_known(ctx) {}
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_cqe_reaped(const QpRef& q, uint32_t index, const uint8_t* cqe, int core, Ps t) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer, Ps t) override;
  void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) override;
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
  // Puts of one source on one QP that its PE has not yet known complete, from the first to
  // the last: a reap covering `last` settles them all (CQEs of a QP come in order).
  struct Window {
    WqeRecord first, last;
    Ps complete_ps;  // the latest completion among them
  };
  void on_rewrite(const Rewrite& w);
  void judge(const Window& win, const Rewrite& w);
  Ps posted_ps(const WqeRecord& r) const;
  bool settled(const WqeRecord& r, Ps t) const { return m_known.known_complete_ps(r.qp, r.wqe_index) <= t; }
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
  CompletionKnowledge m_known;
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

}  // namespace symsim
