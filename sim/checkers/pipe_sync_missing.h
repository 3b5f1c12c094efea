#pragma once
#include <array>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"
#include "sim/checkers/pending_flags.h"
#include "sim/checkers/per_core.h"
#include "sim/checkers/ring_fifo.h"

namespace symsim {

inline constexpr HazardId kPipeSyncMissing{"pipe_sync_missing", "a pipe read what another pipe writes with no SetFlag/WaitFlag between"};

// pipe_sync_missing: a pipe used bytes another pipe of the core wrote (or still read) with
// no SetFlag/WaitFlag or PipeBarrier between them.
constexpr int kPipes = 4;  // AIV pipes S, V, MTE2, MTE3 (models/ascend/aiv_core.h)

class PipeSyncMissingChecker : public Checker {
 public:
  using Checker::Checker;
  void on_block_start(int pe, int core, const char* kernel, Ps t) override;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  // The hub calls these with the event's pending SetFlag (pending_flags.h).
  void on_set_flag(const PipeSyncRecord& s, PendingFlag& set);
  void on_wait_flag(const PipeSyncRecord& s, const PendingFlag& set);
  void on_barrier(const PipeSyncRecord& s);

 private:
  struct Access {
    const uint8_t* begin;
    const uint8_t* end;
    uint64_t seq;
    bool write;
    unsigned reported = 0;  // bit per pipe already reported against it (one report per pair)
    SiteRef site;
  };
  // Ordering only ever covers a prefix of a pipe's accesses: ordered[x][q] is the sequence
  // number below which every access of pipe x is ordered before pipe q. A copy on q then
  // scans only the unordered tail of each other pipe, and ordered heads are dropped.
  // A ring per pipe, not a deque: a deque allocates a block every few copies and costs one
  // even when empty, for each of the thousands of cores of a large run.
  struct Core {
    std::array<RingFifo<Access>, kPipes> by_pipe;  // oldest first
    std::array<std::array<uint64_t, kPipes>, kPipes> ordered{};
    uint64_t seq = 0;
  };
  struct Conflict {
    Access* a;
    int pipe;
    bool raw;
  };
  [[gnu::noinline]] void report(const CopyRecord& c, const Conflict& f);
  PerCore<Core> m_cores;
  std::vector<Conflict> m_conflicts;  // one copy's, kept to reuse its storage
};

}  // namespace symsim
