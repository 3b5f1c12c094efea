// calib_probe: the per-SM calibration rows (docs/hw-calibration.md, symsim-calib) as one kernel
// the simulator and the GPU both run, so that each row can be re-simulated: a stream of 1D
// bulk loads or stores from one CTA (lane 0 of `warps` warps, `inflight` copies in flight
// each), a dependent load or atomic chain of one thread, same-address reductions from every
// CTA, plain 16 B stores from a full CTA, returning atomics from a full CTA, and chains of
// dependent shuffles or votes in every warp of one CTA, and (code_probe.cu) a loop of index
// arithmetic in every warp of one CTA. Thread 0 of
// each CTA times its CTA with clock64; the host turns cycles into the row's unit.
#pragma once
#include <cstdint>

struct PullDispatchArgs;

enum CalibProbeMode : int {
  kProbeTmaLoad = 0,     // GB/s: bulk loads global -> shared
  kProbeTmaStore = 1,    // GB/s: bulk stores shared -> global
  kProbeLoadChain = 2,   // ns per dependent load
  kProbeAtomicChain = 3, // ns per dependent returning atomic
  kProbeRedOneAddr = 4,  // G ops/s: red.add on one word from every CTA
  kProbeStoreSm = 5,     // GB/s: one CTA's 16 B stores
  kProbeAtomicSm = 6,    // G ops/s: one CTA's returning atomics, one per thread in flight
  kProbeShflChain = 7,   // ns per dependent __shfl_sync, per warp (`warps` warps at once)
  kProbeBallotChain = 8, // ns per dependent __ballot_sync, per warp
  kProbeTmaMbar = 9,     // ns per round: one thread arms an mbarrier for `inflight` bulk loads, issues them, waits
  kProbeCodeLoop = 10,   // ns per iteration of row code.loop_iter's loop, per warp (code_probe.cu)
  // The kernels' own steps (shim_probe.cu), ns per step and warp (per sync or round: 14, 15):
  kProbeCopyRound = 11,     // combine's / pull's send step: lane 0 loads a row to shared memory, waits, stores it
  kProbeCopyRoundWarp = 12, // dispatch's send step: two buffers, the whole warp waits on the mbarrier
  kProbeReduceRow = 13,     // combine's reduce of one row: 16 B per lane from `inflight` rows, one 16 B store
  kProbeGridSync = 14,      // comm::grid_sync across the probe's CTAs
  kProbeSignalWait = 15,    // comm::nvlink_signal_and_wait at one PE
  // Mode 11 taken apart (issue 19, sixth pass): what makes its round slower than its parts.
  kProbeCopyRoundRead = 16,    // mode 11 with wait_group.read for the last store (shared buffer read, not the writes done)
  kProbeCopyRoundTwoBufs = 17, // mode 11 with two shared buffers, alternating (the next load writes the other one)
  kProbeCopyRoundOther = 18,   // mode 11 storing the other buffer (the store does not read what the load just wrote)
  // Issue 19, seventh pass: mode 12's two halves apart, and pull's whole per-token step.
  kProbeLoadRoundWarp = 19,  // mode 12 without its store: bulk loads only, the whole warp waits on the mbarrier
  kProbeStoreRoundWarp = 20, // mode 12 without its load: bulk stores only, one left in flight
  kProbePullStep = 21,       // pull_dispatch's step per token; `inflight` bits: 1 routing load, 2 slot atomic,
                             // 4 slot stores, 8 SymBuffer::map, 16 run-time divisions, 32 rows to
                             // their slots in `out`, 64 two buffers and wait_group 1
  // Second call: intranode_dispatch at one PE up to the end of phase `inflight` (dispatch_phases_probe.cu), ns.
  kProbeDispatchPhases = 22,
  // Eighth pass: rows of memory written or read once, by the memory's state (fresh_rows_probe.cu), ns.
  kProbeFreshRows = 23,
  // Eighth pass, second call: the application kernel itself (launch_intranode_dispatch) over
  // mode 22's memory and host sequence; its time is the GPU's events around the launch.
  kProbeAppDispatch = 24,
  // Eleventh pass: the application's pull_dispatch over the probe's memory (x the window,
  // recv_x `out`); its time is the GPU's events around the launch.
  kProbeAppPull = 25,
  // Twelfth pass: a copy of pull_dispatch at one PE with clock64 stamps per warp at each phase's
  // end (pull_phases_probe.cu) over mode 25's memory; the figure is the slowest warp's whole body, ns.
  kProbePullPhases = 26,
  // Fifteenth pass: mode 9 with `stride` iterations of row code.loop_iter's loop before each
  // copy, its code counted as the kernels' (tma_code_probe.cu), ns per round.
  kProbeTmaMbarCode = 27,
  // Then: one bulk store per round, commit, wait_group 0, then `stride` iterations of that code, ns per round.
  kProbeTmaStoreCode = 28,
  // Sixteenth pass: mode 12's round with dispatch's per-token work between its load and its store,
  // by the bits of `stride` (dispatch_step_probe.cu; from bit 16 the routing's parts alone), ns per step and warp.
  kProbeDispatchStep = 29,
  // Thirtieth pass: hw/calib/bench_flags.cu's flag ping-pong between two CTAs' thread 0
  // (flag_probe.cu), `count` round trips, ns one way (rows flag.*.one_way_ns).
  kProbeFlagPingPong = 30,
};
constexpr int kFlagProbeOwnAtomic = 8;  // mode 30's `inflight` bit: the poller's atom.add 0 on its flag before each wait
// Mode 30's `inflight` bits for flavours 1 and 3 (release/acquire): the store relaxed (the acquire
// poll alone), or the load relaxed (the release store alone), at the flavour's scope.
constexpr int kFlagProbeStoreRelaxed = 16, kFlagProbeLoadRelaxed = 32;
// Mode 30's `inflight` bits 64 / 128 (relaxed.gpu with kFlagProbeOwnAtomic): the poller's atom.add 0 goes to
// the word 4 B (64: the flag's 32 B sector), 256 B (128: another 128 B line of its 4 KiB) or 4096 B (192: the
// next 4 KiB, the other L2 half by sm.load_far_partition_bits' b12 ^ b13) after its flag, not to the flag:
// whether the own-atomic row's high address group needs the polled word itself (forty-second pass (s36-flag)).
constexpr int kFlagProbeAtomicOffsetShift = 6;
constexpr uint32_t kTmaCodeAfterWait = 1000;  // mode 27's `stride` from here: the code once per round, after the wait

struct CalibProbeArgs {
  int mode;
  uint8_t* buf;          // the window the probe walks
  uint64_t window_bytes; // its size
  uint32_t bytes;        // per copy (TMA modes)
  int inflight;          // 1, 2, 4 or 8 (TMA modes)
  int per_thread;        // copies per issuing warp / loads or atomics per thread / reductions per CTA
  uint32_t stride;       // bytes between chain elements
  int bufs;              // shared buffers per issuing warp (TMA modes)
  int* word;             // the reduction's word
  unsigned long long* cycles;  // per CTA: clock64 ticks of its timed part
  int ranks, topk, experts;    // mode 22 + 8: dispatch's bounds as run-time values (1, 8, 64)
  uint8_t* out;                // mode 21 + 32, mode 25: rows stored in slot order, memory never written
};

constexpr int kCalibProbeMaxWarps = 32;
constexpr int kCalibProbeMbarBytes = kCalibProbeMaxWarps * 8 * 8;
// Mode 21's arrays in `word`: the slot counter, then a routing table of kPullProbeTokens x 8
// entries (zeros: every token is this PE's), then two source words per slot (slots wrap).
constexpr int kPullProbeTopkInts = 64, kPullProbeSrcInts = 16384, kPullProbeTokens = 1024, kPullProbeSlots = 16384;
constexpr int kPullProbeWordBytes = (kPullProbeSrcInts + 2 * kPullProbeSlots) * 4;
int launch_calib_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
int launch_code_probe(int threads, const CalibProbeArgs& args);
int launch_shim_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
int launch_shim_parts_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);  // modes 19-21
int launch_tma_code_probe(int threads, int smem_bytes, const CalibProbeArgs& args);                 // modes 27, 28
// Mode 29: `word` holds the slot counter, then mode 21's routing table (kPullProbeTopkInts on).
int launch_dispatch_step_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
// Mode 29 with `stride` >= 1 << 16: the routing step's parts alone (dispatch_route_probe.cu).
int launch_dispatch_route_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
// Modes 14 and 15 with `stride` >= 1 << 16: the grid sync and signal-and-wait, release apart (sync_probe.cu).
int launch_sync_probe(int ctas, int threads, const CalibProbeArgs& args);
// Mode 30: `inflight` & 7 the ordering flavour (0 relaxed.sys, 1 release/acquire.sys, 2 relaxed.gpu,
// 3 release/acquire.gpu, 4 volatile), + kFlagProbeOwnAtomic, + kFlagProbeStoreRelaxed or
// kFlagProbeLoadRelaxed (flavours 1, 3); two CTAs, flags in the window's first 256 B.
int launch_flag_probe(const CalibProbeArgs& args);
// Mode 30 + 8 + 64 / 128 / 192 (flag_beside_probe.cu): the relaxed.gpu ping-pong, the poller's atomic beside its flag.
int launch_flag_beside_probe(const CalibProbeArgs& args);
// Mode 22: `count` tokens of `bytes` each (x, then the receive buffer and recv_x of 16 B + `bytes`
// messages, in the window); in `word` the barrier's workspace, then from this int the send
// counter, the count, the total, a pad and the routing table (`count` x 8 zeros: every expert is this PE's).
constexpr int kDispatchProbeCounterInt = 8;
int launch_dispatch_phases_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
// Mode 23: `count` rows of `bytes`, each once; `inflight` the operation (1 bulk stores, 2 plain
// stores, 3 bulk loads, 4 plain loads, 5 bulk stores each followed by two 4 B stores to `word`).
int launch_fresh_rows_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
// Mode 23 + 64: the op-1 loop with one thing taken out, by `inflight` & 7 (store_chain_probe.cu).
int launch_store_chain_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args);
// Mode 26: per warp, kPullPhaseStamps words: clock64 ticks from the warp's entry to the end of
// the set-up, the first barrier, the loop, the last store's wait, the last barrier; the global
// timer at entry and at exit (ns, 0 in the simulator); the warp's pulled tokens.
constexpr int kPullPhaseStamps = 8;
int launch_pull_phases_probe(int ctas, int threads, const PullDispatchArgs& args, unsigned long long* stamps);
constexpr bool is_shim_probe(int mode) { return mode >= kProbeCopyRound && mode <= kProbePullStep; }
constexpr bool is_copy_round(int mode) { return mode >= kProbeCopyRoundRead && mode <= kProbeCopyRoundOther; }  // modes 16-18
