// Internal state of the Ascend shim (one simulation per process).
#pragma once
#include <systemc>

#include <deque>
#include <list>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/core/qp_table.h"
#include "models/platform/ascend_system.h"
#include "shmem_types.h"
#include "models/ascend/aiv_core.h"
#include "symsim/code_site.h"
#include "symsim/shim_core.h"
#include "symsim/shim_runtime.h"
#include "kernels/shim/ascend/src/teams.h"

namespace symsim::shim {

struct Stream {
  int pe = 0;
  Ps tail_ps = 0;       // when the last queued kernel finishes (known once it has)
  int running = 0;      // kernels launched and not yet finished
  bool trapped = false;
  sc_core::sc_event idle;
};

struct HostState {
  int pe = 0;
  ExecContext ctx;
  bool finished = false;
  std::string waiting_on;
  bool shmem_ready = false;
  uint64_t instance_id = 0;  // aclshmemx_init_attr_t::instance_id of the live instance
  aclshmemi_aiv_udma_info_t* udma_info = nullptr;  // in this PE's HBM
  uint32_t qp_num = 1;  // aclshmemx_set_qp_num before init
  bool relay_build = false;  // initialised by a host program built with ACLSHMEM_RELAY_SUPPORT
  std::vector<std::unique_ptr<Stream>> streams;
  // The generic RMA calls' UDMA staging (aclshmemx_set_udma_config; upstream's default).
  aclshmem_udma_config_t udma_config{189 * 1024, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE, 0};
  // The MTE engine's staging of the strided calls (aclshmemx_set_mte_config; upstream's default).
  aclshmem_ub_config_t mte_config{0, 16 * 1024, 0};
  // The RoCE calls' WQE staging when they are given no UB buffer (aclshmemx_set_rdma_config;
  // upstream's default: UB offset 190 KiB).
  aclshmem_ub_config_t rdma_config{190 * 1024, ACLSHMEM_RDMA_MTE_STAGING_UB_SIZE, 0};
  // aclshmemx_set_sdma_config (upstream keeps it in its device state; no SDMA call reads it).
  aclshmem_ub_config_t sdma_config{0, 0, 0};
};

// What a coroutine polls, kept as fields and formatted only when a hang is reported.
struct PollWait {
  const char* what = nullptr;  // null: not polling
  uint32_t index = 0;
  int pe = 0;
  uint32_t qp = 0;
  const void* addr = nullptr;
  CallSite site{};
  void set(const char* w, uint32_t i, int p, uint32_t q, const void* a, CallSite s) {
    what = w; index = i; pe = p; qp = q; addr = a; site = s;
  }
  void clear() { what = nullptr; }
  std::string describe() const;
  int slot = -1;          // the QP's table row (hang reports)
  int owner_bit = -1;     // the CQE owner bit the poll waits for (-1: none), put in words on a hang
};

// Consecutive GM observations (dcci, ld_dev, GM reads) with no write or doorbell in between:
// a polling loop, for hang detection, and for sleeping through it (sim.idle_poll_sleep).
struct SpinState {
  const void* addr = nullptr;  // the latest address observed
  uint64_t bytes = 0;
  uint64_t polls = 0;          // including the polls slept through
  Ps since_ps = 0;
  CallSite site{};
  // The same observation repeating: what it read, when, at what period.
  static constexpr uint32_t kMaxBytes = 64;
  const uint8_t* seen_addr = nullptr;
  uint32_t seen_bytes = 0;
  CallSite seen_site{};
  uint8_t seen[kMaxBytes] = {};
  Ps seen_ps = 0;
  Ps period_ps = 0;
  uint32_t repeats = 0;        // periods of the same length in a row
  uint64_t seen_calls = 0;     // ExecContext::shim_calls then: other shim calls break the pattern
  bool effect = false;         // the block wrote or rang something since
  // Set by a shim loop that gives up after a number of polls: how many it may still run; the
  // polls it slept through come back in `skipped`.
  uint64_t budget = UINT64_MAX;
  uint64_t skipped = 0;
  bool asleep = false;
  std::unique_ptr<MemoryWatch::Sleeper> sleeper;
  // The last few places polled and a hash of what they held: a poll of a place not among them,
  // or one that now holds other bytes, saw something new (a loop walking over ready CQEs or
  // flags makes progress without writing anything).
  struct Seen {
    const void* addr = nullptr;
    uint64_t bytes = 0;
    uint64_t hash = 0;
  };
  static constexpr size_t kRecent = 8;
  Seen recent[kRecent];
  size_t recent_next = 0;
};

// The reads a polling block has made by `at`, counting those it sleeps through (polling.cpp).
uint64_t polls_at(const SpinState& sp, Ps at);

// What the first call of a defer/submit batch fixed; later calls must match it.
struct BatchContract {
  const char* api = "";
  uint8_t opcode = 0;
  int pe = 0;
  int relay_pe = -1;
  uint32_t qp = 0;
  const uint8_t* ub_base = nullptr;
  uint32_t sync_id = 0;
  uint32_t staged = 0;  // WQEs staged so far (what pending_count must say)
  CallSite site{};
};

// A block of a launched kernel running on one AIV core.
// The dump build (ascendc_dump.cpp): a block's slice of an InitDump workspace and the records
// written into it, kept until the host prints that workspace.
struct DumpSlice {
  int pe = 0, core = 0;
  const uint8_t* workspace = nullptr;  // the whole workspace (AdumpPrintWorkSpace's key)
  uint64_t capacity_bytes = 0, used_bytes = 0, dropped_bytes = 0;
  std::string records;
};

struct BlockState {
  BlockContext ctx;
  std::string waiting_on;  // barriers: who has arrived ("": not in one)
  const char* barrier_api = "";
  CallSite barrier_site{};
  PollWait waiting;        // CQ polls
  SpinState spin;          // any polling loop
  bool finished = false;
  std::map<const void*, BatchContract> batches;  // open batches by their state object
  Ps last_vf_end_ps = 0;   // end of the block's last SIMT VF (wqe_posts.h)
  DumpSlice* dump = nullptr;  // after InitDump: its slice in World::dump_slices
  // SetAtomicAdd<T>: MTE3 copies to GM add their elements of this type (ascendc_atomic.cpp);
  // null after SetAtomicNone.
  void (*atomic_add)(uint8_t* dst, const uint8_t* src, uint64_t bytes) = nullptr;
};

// Per SQ: the producer index up to which WQEs have post records, and when a core last rang it.
struct PostCursor {
  uint32_t next = 0;
  Ps last_doorbell_ps = 0;
};

// Where the last deadlock check found something that could still progress.
struct QuiescentHint {
  size_t pe = 0, core = 0;  // a busy block
  int engine_pe = 0;        // a busy UDMA engine
};

struct Launch;  // launch.cpp

// The SystemC thread that runs the blocks of one AIV core, launch after launch: made on the
// core's first launch and kept, so a launch costs no thread (no stack mmap/munmap). `go` wakes
// it in the same evaluation phase, at the same place in the runnable queue, as spawning it did.
struct BlockWorker {
  sc_core::sc_event go;
  std::shared_ptr<Launch> launch;  // the launch to run; null while it waits
  uint32_t idx = 0;
  bool busy = false;               // from the launch's start to its block's end
};

struct World {
  AscendSystem* sys = nullptr;
  std::vector<HostState> hosts;
  std::vector<std::vector<std::unique_ptr<BlockState>>> blocks;  // [pe][core], current launch
  std::vector<uint32_t> launch_blocks;  // block count of each PE's current launch
  std::vector<std::vector<std::unique_ptr<BlockWorker>>> workers;  // [pe][core], made on first launch
  std::vector<TrapRecord> traps;
  Ps last_activity_ps = 0;

  // Host barrier.
  int host_arrived = 0;
  uint64_t host_generation = 0;
  Ps host_release_ps = 0;
  sc_core::sc_event host_event;
  // Vector (device) barrier.
  int vec_arrived = 0;
  uint64_t vec_generation = 0;
  Ps vec_latest_ps = 0;
  Ps vec_release_ps = 0;
  sc_core::sc_event vec_event;
  // Hang diagnosis.
  bool deadlock = false;             // the shim stopped the run: nothing could progress
  QuiescentHint quiescent_hint;
  std::vector<WaitRecord> gave_up;   // polls past the retry limit
  QpTable<PostCursor> posts;         // wqe_posts.h
  Teams teams;                       // teams.h
  std::list<DumpSlice> dump_slices;  // not yet printed by the host
  std::map<std::pair<uint64_t, int>, int> forked_verdicts;  // symsim/forked_pes.h: (round, rank) -> signal
};

World& world();
// AscendC::printf of the running block in the dump build: into its workspace (true); ascendc_dump.cpp.
namespace dump {
bool capture(const char* text);
}
// The internal forms of shim_core.h's entry points, for shim code, which passes the call site.
void device_store_at(void* addr, uint64_t value, uint32_t bytes, CallSite site);
void cache_clean_invalidate_at(const void* addr, uint64_t bytes, CallSite site, uint64_t observed = 0);
// `hop_ps`: one dissemination round (0: aiv.barrier_hop_ns).
void vector_barrier_all_at(CallSite site, const char* api, Ps hop_ps = 0);
namespace simt {
void reject_in_vf_at(const char* what, CallSite site);
}
// AscendC internals (ascendc.cpp): a copy between GM and UB or UB and UB (DataCopy / DataCopyPad;
// a GM side in another PE's HBM crosses the fabric), and SetFlag / WaitFlag / PipeBarrier.
void copy_blocks_at(uint8_t* dst, uint64_t dst_stride_bytes, const uint8_t* src, uint64_t src_stride_bytes,
                    uint64_t block_bytes, uint64_t blocks, bool byte_granular, CallSite site);
void pipe_sync_at(PipeSyncRecord::Kind kind, AivPipe src, AivPipe dst, int id, CallSite site);
// The running block's SetAtomicAdd mode: how an MTE3 copy to GM adds its bytes (null: none).
using AtomicAddFn = void (*)(uint8_t* dst, const uint8_t* src, uint64_t bytes);
AtomicAddFn atomic_add_mode();
namespace mte {
// shmem_device_mte.h's copy_via_ub for shim code.
void copy_via_ub_at(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                    uint64_t row_bytes, uint64_t rows, void* ub, uint64_t ub_bytes, uint32_t sync_id, CallSite site);
void* peer_at(const char* api, const void* addr, int pe, CallSite site);
void copy_direct_at(const char* api, void* dst, uint64_t dst_stride_bytes, const void* src, uint64_t src_stride_bytes,
                    uint64_t row_bytes, uint64_t rows, CallSite site);
}  // namespace mte
inline SiteRef site_ref(CallSite s) {
  SiteRef r;
  r.pc = s.pc;
  return r;
}
HostState& host();  // the calling host program's state
Ps now_ps();
// Blocks a host coroutine for `d`.
void host_wait(Ps d);
// Spin detection: the running block observed [addr, addr+bytes) of GM (a poll), or wrote GM
// or rang a doorbell (an effect). A block past kSpinPolls polls with no effect is polling;
// when every block polls or waits and nothing is in flight, the shim stops the run (deadlock).
constexpr uint64_t kSpinPolls = 256;
// `watch_bytes`: what a loop that repeats this read sleeps on (0: `bytes`).
void note_poll(const void* addr, uint64_t bytes, CallSite site, uint64_t watch_bytes = 0);
// Held by an observation or pipe sync: the shim calls it makes are not counted as other work.
class UncountedCall {
 public:
  UncountedCall() : m_ctx(current_exec()) { if (m_ctx) ++m_ctx->uncounted; }
  ~UncountedCall() { if (m_ctx) --m_ctx->uncounted; }
  UncountedCall(const UncountedCall&) = delete;
  UncountedCall& operator=(const UncountedCall&) = delete;

 private:
  ExecContext* m_ctx;
};
void note_effect();
// note_effect for a caller that has its core and the world at hand (a doorbell store, twice a put).
inline void note_effect(World& w, const AivCore& c) {
  if (BlockState* b = w.blocks[c.pe()][c.core()].get()) {
    b->spin.polls = 0;
    b->spin.effect = true;
  }
}
// The running block (or host) made [addr, addr+bytes) visible now outside the visibility queue
// (a write-back, a device store, a host copy): cores asleep on those bytes look again, and the
// checkers hear of the write (`what` names it).
void note_store(const void* addr, uint64_t bytes, const char* what, CallSite site = {});
// The running block is about to store to [addr, addr+bytes) at its local time: a put that
// reads those bytes before then reads them first (AivCore::before_store).
void before_core_store(const void* addr, uint64_t bytes);
// True if the running block read these same bytes, unchanged, at its last observation.
bool rereads_unchanged(const void* addr, uint64_t bytes);
// The wait record of `b` (PE `pe`, core `core`) as a hang report shows it.
// `at_ps`: the time the record describes (polls slept through count up to it).
WaitRecord wait_record(int pe, int core, const BlockState& b, Ps at_ps);
void host_barrier(const char* what);

}  // namespace symsim::shim
