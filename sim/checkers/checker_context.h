// What every checker shares: the hazard log, the platform (to name addresses and read ring
// and memory state), and the index of call sites. Also the helpers that turn host pointers
// and call sites into deterministic text.
#pragma once
#include <map>
#include <string>
#include <tuple>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/hazard_log.h"
#include "sim/checkers/pending_flags.h"
#include "sim/checkers/site_index.h"
#include "models/core/observer.h"
#include "models/core/qp_table.h"
#include "models/core/sim_now.h"  // sim_now_ps(): the checkers read the time as the models do

namespace symsim {

class AscendSystem;
struct Region;
struct CopyRecord;
class CompletionKnowledge;
struct QpRecord;
struct UdmaQp;

struct CheckerContext {
  HazardLog& log;
  AscendSystem& sys;
  SiteIndex& sites;

  bool on(const char* id) const { return log.enabled(id); }
  // "pe1.heap+0x200", "pe0.queues+0x40", "pe0.aiv1.ub+0x0"; raw hex outside every region.
  std::string addr(const void* p) const;
  std::string addr(uint64_t va) const { return addr(reinterpret_cast<const void*>(va)); }
  // The symmetric-heap offset of `va` on its PE, or -1.
  int64_t heap_offset(uint64_t va) const;
  // Which PE's memory holds `p` (-1: none).
  int pe_of(const void* p) const;
  bool in_queue_ring(const void* p) const { return where(p).ring_pe >= 0; }  // an SQ/CQ ring of any PE
  bool in_unified_buffer(const void* p) const { return where(p).unified_buffer; }
  // The engine's view of a QP (null when the engine has no such QP).
  const UdmaQp* engine_qp(const QpRef& q) const;
  mutable QpTable<size_t> qp_index;  // (pe, slot, qp) -> engine list index
  // Posts and reaps per QP, shared by the happens-before rules (CheckerSet owns and feeds it).
  CompletionKnowledge* completions = nullptr;
  // The per-QP records of the per-WQE rules (qp_record.h; CheckerSet owns it, never null).
  QpTable<QpRecord>* qps = nullptr;
  // The SetFlags not yet waited, per core (pending_flags.h; CheckerSet owns it, never null).
  PendingFlags* pending_flags = nullptr;
  // A hazard at a QP's WQE, with the site that posted it filled in.
  Hazard at_wqe(const HazardId& id, const QpRef& q, uint32_t wqe, Ps t) const;
  // A hazard at an AIV core's copy (its PE, core, issue time and site), at `addr`.
  Hazard at_copy(const HazardId& id, const CopyRecord& c, const void* addr) const;

  // What kind of memory holds an address. A copy's ends are classified once by the hub
  // (CopyEnds); a store's rules ask of its destination twice: the last two addresses classified
  // are remembered. The regions are fixed once the platform is built, so an answer never goes
  // stale; the initial entries (null: no region) are what classify(nullptr) gives.
  struct Where {
    const void* p = nullptr;
    const Region* region = nullptr;  // the address map's region holding it (null: none)
    int ring_pe = -1;  // whose SQ/CQ rings hold it (-1: none)
    bool unified_buffer = false;
  };
  const Where& where(const void* p) const {
    if (m_where[0].p == p) return m_where[0];
    if (m_where[1].p == p) return m_where[1];
    return classify(p);
  }
  const Where& classify(const void* p) const;
  // `p` classified from the region that holds it (null: none).
  Where where_in(const void* p, const Region* r) const;
  mutable Where m_where[2] = {};
  mutable unsigned m_where_next = 0;
};

// A copy's two ends, classified once for every rule that hears the copy (the checkers' hub does
// it, from the regions the shim found).
struct CopyEnds {
  CheckerContext::Where src, dst;
};

// "WRITE", "READ", ... for messages.
const char* opcode_text(uint8_t opcode);
// "token mismatch", ... for a CQE substatus the engine writes.
std::string substatus_text(uint8_t status, uint8_t substatus);

// "kernels/hazards/x.cpp:42" (relative to the source tree), or "" when unknown.
std::string site_text(SiteRef s);
// "at kernels/...:42" or "".
std::string at_site(SiteRef s);
// "1.234 us"
std::string us_text(Ps t);

}  // namespace symsim
