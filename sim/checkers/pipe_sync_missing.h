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
  // The accesses before the SetFlag: what its WaitFlag will order. Inline (the hub's SetFlag).
  void on_set_flag(const PipeSyncRecord& s, PendingFlag& set) { set.seq = m_cores[{s.pe, s.core}].seq; }
  void on_wait_flag(const PipeSyncRecord& s, const PendingFlag& set);
  void on_barrier(const PipeSyncRecord& s);

 private:
  // One copy's accesses: the bytes it read (unless `reads` is false: a read of a queue ring is
  // not kept) and the bytes it wrote. Each access has its own sequence number, the read's one
  // below the write's, as when they were kept as two entries; one entry per copy halves the
  // appends, drops and visits of every copy (session 32).
  struct Access {
    const uint8_t* read_begin;
    const uint8_t* read_end;
    const uint8_t* write_begin;
    const uint8_t* write_end;
    uint64_t write_seq;  // the read's is write_seq - 1
    bool reads;
    // Bit per pipe already reported against the read and against the write (one report per pair).
    uint8_t read_reported, write_reported;
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
  // An earlier access (the read or the write of `a`) that the copy conflicts with.
  struct Conflict {
    Access* a;
    uint64_t seq;  // the access's: reports come in this order
    int pipe;
    bool on_write;  // the earlier access is a's write (else its read)
    bool raw;
  };
  [[gnu::noinline]] void report(const CopyRecord& c, const Conflict& f);
  PerCore<Core> m_cores;
  std::vector<Conflict> m_conflicts;  // one copy's, kept to reuse its storage
};

}  // namespace symsim
