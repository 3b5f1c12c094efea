// What the SM model runs: a kernel launch (grid of CTAs), its CTAs (one per SM, with shared
// memory, a CTA barrier, warp collectives and mbarriers) and its threads (one fiber each, with
// local time and memory-ordering state).
#pragma once
#include <systemc>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/core/bandwidth.h"
#include "models/core/time.h"
#include "models/nvidia/fiber.h"
#include "models/nvidia/mem_order.h"
#include "models/nvidia/sm_ports.h"

namespace symsim::nv {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint32_t count() const { return x * y * z; }
};

struct Cta;
struct Launch;
class GpuScheduler;

// Polls in a row that saw nothing change before a thread counts as idle (hang detection).
constexpr uint32_t kSpinIdle = 8;

// Where a blocked or polling thread is, for hang reports (fields, formatted only when reported).
struct WaitSite {
  const char* what = nullptr;  // null: running
  const char* file = nullptr;
  int line = 0;
  uintptr_t addr = 0;
  uint64_t value = 0;  // last value a poll read
};

// Laid out by how often a resumption touches a field: a GPU runs up to 2048 threads and, between
// two resumptions of one, every other thread of every GPU runs, so each line below is a cache
// miss at each resumption that touches it. The first two lines are what nearly every
// resumption reads or writes (the scheduler's pop, resume and push; a device call's time and
// its code cost); the third what blocking calls and warp collectives add; the rest by use.
struct alignas(64) CudaThread {
  // ---- line 0 ----
  Fiber fiber;  // its suspended context
  Cta* cta = nullptr;
  // ---- line 1 ----
  Ps local_ps = 0;
  CudaThread* ready_next = nullptr;  // behind it in its GPU's ready queue (ready_queue.h)
  const void* ready_next_sp = nullptr;  // where ready_next's stack resumes (for prefetching)
  Ps code_after_loads_ps = 0; // code that uses the loads in flight, run once they are back
  // sm.code_after_bulk_wait_ns: what of the code up to its next operation a bulk wait_group
  // that waited has already paid (cleared at that operation).
  Ps code_paid_by_wait_ps = 0;
  // Polls that saw nothing change (same address and value, nothing stored in between).
  uint32_t spin = 0;
  uint32_t loads_head = 0, loads_count = 0;  // the ring `loads` below
  uint16_t tid = 0;  // linear index in the CTA (a CTA has at most 1,024 threads)
  uint16_t warp = 0, lane = 0;
  bool blocked = false;
  bool finished = false;
  bool loads_used = false;   // kernel code has used them: their wait pays sm.load_use_ns
  bool syncwarp_all = false;  // its next __syncwarp is ptx::syncwarp_all
  bool bulk_store_since_sync = false;  // it issued a bulk store since its last __syncwarp (a lane-0 branch)
  bool loads_narrow = false;  // one is narrower than 16 B (a word the code uses at once)
  bool loads_wide = false;    // one is 16 B or wider (a row's data): only these pay sm.load_use_ns
  bool loads_wide_reread = true;  // ... and every such one re-read its lines (l2.reread_skips_use): none pays it
  // The kind of the thread's last model operation when it was a plain global store or a 16 B
  // data load, else kCodeOpOther: code between two of one kind is a loop's independent
  // iterations (sm.code_indep_insn_ns, models/nvidia/code_cost.h).
  uint8_t code_op = 0;
  // The running loop's 16 B loads before their first use, as its SASS has them
  // (ptx::LoadsBeforeUse); 0: sm.loads_before_use.
  uint8_t loads_before_use = 0;
  // The running bulk-store loop's code a store as its SASS has it (ptx::store_loop_code,
  // tools/sass-store/store_loops.py), ns; 0: the host count. Once the thread issued a store in it,
  // that is its code (store_loop_stored).
  bool store_loop_stored = false;
  float store_loop_ns = 0;
  // Of it, the code from the loop's head to its store (its first store runs it, not the host count).
  float store_loop_pre_ns = 0;
  double store_loop_host_ns = 0;  // host-counted code charged since the loop's mark, before its first store
  // ---- line 2 ----
  WaitSite wait;
  // Warp collective operand and result.
  uint64_t coll_value = 0;
  uint64_t shfl_operand = 0;  // the thread's last shuffle's operand (code_op kCodeOpShuffle)
  // Its next run of shuffles is a loop its SASS unrolls (ptx::unrolled_shuffles): code between two
  // shuffles of the same operands is charged as independent (cta_sync.cpp, warp_op).
  bool unrolled_shuffles = false;
  uint64_t coll_result = 0;
  uint32_t coll_arg = 0;
  // mbarrier wait: which barrier and parity this thread is blocked on.
  uint32_t mbar_parity = 0;
  // ---- lines 3 and 4: what most device calls read of it; then the rest ----
  ThreadOrder order;
  uintptr_t mbar_wait = 0;
  // A returning atomic whose result the thread has not waited for: its word and when the result
  // is back. The thread goes on behind it (the SASS issues the next instruction, a poll's
  // LDG.STRONG of that word, behind the ATOMG: nothing there waits for its register); the next
  // operation other than a strong load of that word or a clock read waits for it (use_loads).
  uintptr_t rmw_word = 0;
  uint32_t poll_loop_polls = 0;  // strong loads of one word in a row (0: the loop's first)
  bool poll_phase_set = false;   // mem.poll_phase_once: the thread's poll loops have their phase
  uintptr_t own_rmw_words[2] = {0, 0};  // the words of its last two atomics / reds, latest first
  Ps own_rmw_issue_ps = 0;  // when the latest of them (own_rmw_words[0]) was issued
  bool own_rmw_reads_only = false;  // that one adds (or ors, xors) 0: an atomic read of the word
  Ps rmw_back_ps = 0;
  // TMA bulk store groups: completion time of each committed group, oldest first, and the
  // latest landing time of the stores issued since the last commit.
  Ps bulk_open_ps = 0;
  bool bulk_open = false;
  Ps bulk_load_from_ps = 0;  // tma.load_after_store_ns: the next bulk load starts no sooner
  // The thread's last bulk store: where its destination ended and when its bytes had all landed
  // (a store that continues it while in flight is not unaligned there: tma.cpp).
  uintptr_t bulk_store_end = 0;
  Ps bulk_store_landed_ps = 0;
  Ps bulk_store_issue_ps = 0;  // when it was issued (tma.load_after_store_issue_ns)
  Ps bulk_store_from_ps = 0;  // tma.store_gap_ns: the next bulk store issues no sooner
  std::vector<Ps> bulk_groups;
  uintptr_t last_poll_addr = 0;
  uint64_t last_poll_value = 0;
  uint32_t last_poll_bytes = 0;
  Dim3 idx;          // threadIdx
  // Data loads in flight: when each returns (a ring, at most sm.loads_in_flight_per_thread).
  static constexpr uint32_t kMaxLoadsInFlight = 16;
  std::array<Ps, kMaxLoadsInFlight> loads{};
  // The first 16 B data load of the group now in flight (0: none since the last use): a later
  // one of the group sm.load_far_bytes or more from it returns sm.load_far_ns later.
  uintptr_t load_group_addr = 0;
  bool load_group_half = false;  // its L2 half by sm.load_far_partition_bits (read once a group)
  // The lines a resumption touches first (the scheduler prefetches them for the next thread).
  static constexpr size_t kHotBytes = 192;
};
static_assert(sizeof(Fiber) <= 56, "a CudaThread's first line holds its fiber and CTA");

// One warp's rendezvous for __syncwarp, shuffles and votes.
struct WarpSync {
  uint32_t arrived = 0;  // lane mask
  uint32_t expected = 0;
  int kind = 0;
  uint32_t arg = 0;      // shuffle lane / delta / xor mask
  uint32_t width = 32;
  Ps latest_ps = 0;
  SyncCarry carry;  // __syncwarp: what the lanes order before it
  // Each lane's operand of the warp's last shuffle (sm.shfl_indep_ns: a shuffle of the same
  // operands does not wait for that one's result).
  std::array<uint64_t, 32> shfl_values{};
  bool shfl_last = false;
  bool all = false;  // this __syncwarp is a WARPSYNC.ALL after a divergent branch (ptx::syncwarp_all)
  uint32_t stored = 0;  // lanes that arrived having issued a bulk store since their last __syncwarp
};

struct Mbarrier {
  uint32_t expected = 0;     // arrivals per phase
  uint32_t pending = 0;      // arrivals still missing in the current phase
  int64_t tx = 0;            // transaction bytes still expected in the current phase
  uint64_t phase = 0;        // completed phases
  Ps latest_ps = 0;          // latest arrival / byte in the current phase
  std::array<Ps, 2> complete_ps{};  // completion time of the last phase of each parity
  bool armed = false;                // the current phase expects transaction bytes (bulk loads)
  std::array<bool, 2> armed_done{};  // ... the last completed phase of each parity did
};

struct Cta {
  explicit Cta(SmPorts& sm_ports) : ports(sm_ports) {}
  Launch* launch = nullptr;
  int gpu = 0;
  uint32_t index = 0;  // linear blockIdx
  Dim3 idx;            // blockIdx
  int sm = 0;
  GpuScheduler* scheduler = nullptr;  // its GPU's
  Ps op_ps = 0;  // one plain operation of a thread (issue_ps of sm.op_ns, sm.issue_slot_ns)
  std::vector<uint8_t> smem;          // dynamic shared memory
  std::vector<uint8_t> static_image;  // this CTA's copy of the static __shared__ section
  // Static __shared__ variables of a kernel library (the CUDA shim's static_smem places them):
  // shared memory of this CTA beside the dynamic part, allocated when first reached.
  std::unique_ptr<uint8_t[]> static_vars;
  size_t static_vars_bytes = 0;
  std::vector<std::unique_ptr<CudaThread>> threads;
  uint32_t live = 0;
  // CTA barrier (__syncthreads; named barriers keyed by id with their thread count).
  struct Barrier {
    uint32_t arrived = 0;
    Ps latest_ps = 0;
    SyncCarry carry;
    std::vector<CudaThread*> waiters;
  };
  std::map<uint32_t, Barrier> barriers;
  std::vector<WarpSync> warps;
  std::map<uintptr_t, Mbarrier> mbarriers;  // by shared-memory address
  std::vector<CudaThread*> mbar_waiters;
  SmPorts& ports;  // its SM's TMA engine, write path and atomic issue (sm.h)
  // Expires with the CTA: TMA copies still in flight then write nowhere.
  std::shared_ptr<char> alive = std::make_shared<char>(0);
};

struct Launch {
  std::string name;
  int gpu = 0;
  Dim3 grid, block;
  uint64_t dyn_smem_bytes = 0;
  std::function<void()> entry;  // runs one thread's kernel body
  Ps queued_ps = 0;  // the launch reached the GPU (host launch overhead done)
  Ps start_ps = 0;   // its CTAs may start: queued_ps + gpu.launch_start_us
  Ps end_ps = 0;
  uint32_t next_cta = 0;   // CTAs not yet started
  uint32_t live_ctas = 0;
  bool done = false;
  bool failed = false;
  std::string error;       // trap, deadlock or timeout description
  uint8_t* grid_sync_word = nullptr;  // runtime-area counter for cooperative grid sync
  std::vector<std::unique_ptr<Cta>> ctas;
  sc_core::sc_event finished;
};

// The thread whose fiber is running, and SystemC time while it runs (set by its GPU's
// scheduler around each resumption: a fiber never waits, so time cannot move meanwhile).
// Read by every device operation, hence a variable and not a call into the SystemC kernel.
struct RunningThread {
  CudaThread* thread = nullptr;
  Ps now_ps = 0;
};
inline RunningThread g_running;

}  // namespace symsim::nv
