#pragma once
#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "models/core/qp_table.h"

namespace symsim {

inline constexpr HazardId kQpMultiProducer{"qp_multi_producer", "two cores posted to one QP without atomic head reservation"};

// qp_multi_producer: two cores of one launch post to (or ring) the same QP; `observed` when
// their producing spans overlapped in time this run (their head updates could interleave).
class QpMultiProducerChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  void on_block_end(int pe, int core, const char* kernel, Ps t) override;
  // A core producing on a QP in this launch: from its first post or doorbell to its latest.
  struct Span {
    int core;
    SiteRef site;
    Ps first_ps, last_ps;
  };
  // The producers of a QP in its PE's launch number `launch` (kept in its QpRecord; a record of
  // an earlier launch is emptied when the QP is next produced on).
  struct Producers {
    uint64_t launch = 0;
    // The only producer while there is one (else -1), and its latest time: a post or doorbell
    // store of that core updates these in the record, not cores[0] (another cache line per
    // post); producer() folds sole_last_ps into cores[0] before it reads the spans.
    int sole_core = -1;
    Ps sole_last_ps = 0;
    std::vector<Span> cores;  // in order of their first post (one, unless the hazard is there)
  };

  // `mine` is the producers part of the event's QP record (qp_record.h). Inline: nearly every
  // event comes from the QP's one producer of this launch, and then only its span grows.
  void on_post(const PostRecord& p, Producers& mine) {
    if (!sole_producer(p.qp.pe, p.core, p.t, mine)) producer(p.qp, p.core, p.wqe_index, p.t, p.site, "posted", mine);
  }
  void on_bell_store(const QpRef& q, uint32_t value, int core, Ps t, SiteRef site, Producers& mine) {  // SQ doorbells only
    if (!sole_producer(q.pe, core, t, mine)) producer(q, core, value, t, site, "rang the SQ doorbell of", mine);
  }

 private:
  // What producer() does when `core` is already the QP's only producer in its PE's launch.
  bool sole_producer(int pe, int core, Ps t, Producers& p) {
    if (core < 0 || static_cast<size_t>(pe) >= m_pes.size() || p.launch != m_pes[static_cast<size_t>(pe)].launch ||
        p.sole_core != core)
      return false;
    p.sole_last_ps = std::max(p.sole_last_ps, t);
    return true;
  }
  void producer(const QpRef& q, int core, uint32_t wqe, Ps t, SiteRef site, const char* how, Producers& p);
  struct PeLaunch {
    int running = 0;      // blocks of the PE's current launch still running
    uint64_t launch = 0;  // the PE's launches so far (the current one's number)
  };
  std::vector<PeLaunch> m_pes;                         // by PE
  std::set<std::tuple<QpKey, int, bool>> m_reported;  // (QP, second core, observed)
};

}  // namespace symsim
