// The SetFlags of each AIV core not yet waited, one per event (source pipe, destination pipe,
// id): pipe_sync_missing and event_id_unpaired both look the event up at every SetFlag and
// WaitFlag, so the checkers' hub keeps one list for both (checker_hub.cpp) and hands each the
// event's entry.
#pragma once
#include <cstdint>
#include <vector>

#include "models/ascend/ascend_observer.h"
#include "sim/checkers/per_core.h"

namespace symsim {

struct PendingFlag {
  int src, dst, id;  // the event
  uint64_t seq;      // pipe_sync_missing: the core's access sequence number at the SetFlag
  SiteRef site;      // where it was set
};

// A few at a time per core: a list beats a map.
using PendingFlags = PerCore<std::vector<PendingFlag>>;

// The SetFlag of `s`'s event still pending on its core (null: none). Each event is listed once,
// so the list's order does not matter.
inline PendingFlag* find_pending(std::vector<PendingFlag>& pending, const PipeSyncRecord& s) {
  for (PendingFlag& p : pending)
    if (p.src == s.src_pipe && p.dst == s.dst_pipe && p.id == s.event_id) return &p;
  return nullptr;
}

}  // namespace symsim
