// Parameters of an NVIDIA platform (H800/H200-class GPUs over NVLink + NVSwitch, one
// GPU-driven RDMA NIC per GPU). Values come from a preset (scenarios/platforms/h800.json,
// h200.json) where each one names its source; no defaults on purpose: a preset sets every one.
#pragma once
#include "models/core/time.h"
#include "models/fabric/fabric.h"
#include "models/platform/param_table.h"

namespace symsim::nv {

struct NvidiaParams {
  // SMs and the work they do per shim call.
  double sm_count = 0;
  double sm_clock_ghz = 0;         // clock64() rate
  double sm_smem_bytes = 0;        // shared memory per CTA (one CTA per SM)
  double sm_max_threads = 0;       // threads per CTA
  double sm_op_ns = 0;             // issue of one shim operation (store, atomic, arithmetic call)
  double sm_load_issue_ns = 0;     // a weak (data) load: pipelined, the thread does not wait for it
  double sm_syncthreads_ns = 0;
  double sm_mbar_init_fence_ns = 0;  // fence.mbarrier_init.release.cluster    // CTA barrier release after the last arrival
  double sm_shfl_ns = 0;           // a shuffle's result after the last lane arrives
  double sm_shfl_indep_ns = 0;     // a shuffle of the warp's last shuffle's operands: issue after it
  double sm_vote_ns = 0;           // ... a vote's (ballot, any, all, reduce)
  double sm_syncwarp_ns = 0;       // __syncwarp release after the last lane arrives
  double sm_warpsync_all_ns = 0;   // ptx::syncwarp_all: WARPSYNC.ALL after a divergent branch (0: a plain __syncwarp)
  double sm_syncwarp_no_wait = 0;  // 1: no __syncwarp waits for its lanes' stores to land (the GPU's; experiment)
  double sm_store_loop_cycle_ns = 0;  // a bulk-store loop's SASS code (ptx::store_loop_code): ns a cycle (0: host count)
  double sm_store_loop_const_cycles = 0;  // ... a constant / special-register load's latency, cycles
  double sm_store_loop_fence_cycles = 0;  // ... a MEMBAR's, cycles
  double sm_store_loop_first_store_head = 0;  // 1: a marked loop's first store runs the SASS's code from the loop's head to it (ptx::store_loop_code's pre_cycles)
  double sm_diverge_store_ns = 0;  // a __syncwarp closing a branch in which a lane (not the warp) issued a bulk store
  // The SM's issue time per warp instruction (its warps share it): integer work, shuffles, votes.
  double sm_issue_slot_ns = 0;
  double sm_shfl_slot_ns = 0;
  double sm_vote_slot_ns = 0;
  // The kernels' own code between shim calls, per basic block (models/nvidia/code_cost.h): one
  // warp alone, and the SM's issue time per warp block shared by its warps.
  double sm_code_insn_ns = 0;       // one instruction of kernel code between shim calls, one warp alone
  double sm_code_jump_ns = 0;       // a jump (a branch) of that code, one warp alone
  double sm_code_insn_slot_ns = 0;  // the SM's issue time per warp instruction of it, shared by its warps
  double sm_code_div_ns = 0;        // an integer division by a run-time value in that code, above its one instruction
  double sm_code_indep_insn_ns = 0;  // an instruction (a jump too) of code between two plain stores or two 16 B data loads
  double sm_code_after_bulk_wait_ns = 0;  // code after a bulk wait_group that waited, run inside the wait (up to this)
  double sm_code_uses_loads = 0;   // 1: kernel code after a data load waits for it (its value is used)
  double sm_load_use_ns = 0;       // ... and then pays this from the load's return to its use
  double sm_loads_before_use = 0;  // ... once this many are out (the compiled loop issues them first)
  double sm_loads_in_flight = 0;   // data loads one thread keeps in flight before it waits for the oldest
  double sm_load_far_bytes = 0;    // a 16 B data load this far or farther from its group's first ...
  double sm_load_far_ns = 0;       // ... returns this much later (0: off)
  double sm_load_far_partition_bits = 0;  // with a mask: far = the other L2 half by these device-offset bits' parity
  double sm_load_near_issue_ns = 0;  // a 16 B data load nearer than that issues at this cost, not sm_load_issue_ns
  double sm_store_gbytes_per_s = 0;  // the SM's write path: stores and bulk stores together
  double sm_store_queue_ns = 0;    // the write path booked this far ahead before a plain store waits
  double sm_l1_bytes = 0;  // the SM's L1 + shared memory for plain data loads, less the kernel's dynamic shared memory (0: no L1)
  double sm_l1_hit_ns = 0;  // a plain data load's return from L1, from its issue
  double sm_plain_store_own_turn = 0;  // 1: ... booked ahead by the SM's plain stores only, not by bulk stores' bytes
  double sm_store_first_touch_ns = 0;  // a plain store to a granule its SM has not stored to in the launch waits this long (0: off)
  double sm_store_touch_bytes = 0;     // ... the granule: 128 a line, 2 MiB a page
  double sm_atomic_issue_ns = 0;   // one global atomic through the SM's atomic issue port
  // Memory of one GPU.
  double l2_latency_ns = 0;        // one way SM -> L2 (a load round trip is twice this)
  double hbm_latency_ns = 0;       // extra for a bulk read served by HBM instead of L2
  double l2_effective_bytes = 0;   // what the L2 holds of scattered lines (LRU; misses go to HBM)
  double l2_memset_allocates = 0;    // 1: a host cudaMemset's lines are in L2 after it
  double l2_memset_displaces = 0;    // 1: (with allocates 0) its writes push the oldest lines out all the same
  double l2_hits_wait_for_fill = 0;  // 1: a plain load hitting a line still coming in from HBM waits for it
  double l2_reread_skips_use = 0;    // 1: a data load re-reading lines read since their last write skips sm.load_use_ns and the far wait
  double l2_dirty_victim_gbytes_per_s = 0;  // a read miss waits for the dirty lines it pushes out at this rate (0: off)
  double l2_dirty_victim_max_ns = 0;        // ... for at most this long (0: no bound)
  double hbm_bytes = 0;
  double hbm_gbytes_per_s = 0;
  double mem_reorder_window_ns = 0;     // largest seeded extra delay of a weak/relaxed local store
  double nvlink_reorder_window_ns = 0;  // ... of one to an NVLink peer
  double fence_sys_ns = 0;         // extra cost of a system-scope fence (no pending writes)
  double fence_gpu_ns = 0;         // ... of a GPU-scope fence (a release.gpu or fence.*.gpu)
  double fence_sys_hides_local = 0;  // 1: writes to the own GPU drain under a sys fence's own time
  double idle_release_pays_fence = 1;  // 1: a release store / atomic with no write in flight still pays the fence
  double idle_release_gpu_ns = 0;  // a GPU-scope release store / atomic with no write in flight (its MEMBAR.ALL.GPU) when it pays no fence
  double acquire_load_ns = 0;      // an acquire load's CCTL.IVALL: the thread's next instruction waits this long after its return
  double acquire_sys_load_ns = 0;  // ... of a system-scope acquire load (ld.acquire.sys)
  double poll_phase_ns = 0;        // a GPU-scope acquire poll loop's second poll: this x CTA index / CTAs later
  double poll_phase_once = 0;      // 1: only in the thread's first such loop of the launch; later loops keep the phase
  double acquire_gpu_last_rmw = 0;  // 1: a GPU-scope acquire load pays for the word of the thread's last atomic only
  double acquire_on_change = 0;    // 1: a GPU-scope acquire poll that reads another value than the thread's last poll of the word pays too
  double acquire_own_word_first_poll = 0;  // 1: a poll loop's later polls of the own atomic's word pay only on a change
  double own_atomic_poll_floor_ns = 0;     // a poll that sees another's store of the word of the thread's last atomic samples no sooner than this after its issue
  // Atomics at the L2.
  double atomic_unit_ns = 0;           // a returning atomic above a load's L2 round trip
  double atomic_miss_ns = 0;           // ... more when its line is not in L2
  double atomic_same_address_ns = 0;   // an atomic's L2 slot after the previous one on its address
  // TMA engine of one SM.
  double tma_issue_ns = 0;             // from the copy instruction to its request leaving the SM
  double tma_load_issue_ns = 0;        // issuing thread's cost per bulk load on an armed mbarrier
  double tma_arm_ns = 0;               // issuing thread's cost to arm an mbarrier for bulk loads (expect_tx)
  double tma_armed_wait_ns = 0;        // a waiting thread's cost to see a phase armed for bulk loads complete
  double tma_armed_wait_spin_ns = 0;   // ... paid from the wait's start when the phase completes within this of it
  double tma_store_issue_ns = 0;       // ... per bulk store
  double tma_store_gap_ns = 0;         // one thread's bulk stores issue at most one per this (it goes on meanwhile)
  double tma_engine_ns = 0;            // engine occupancy per copy (at least)
  double tma_load_hbm_inflight_ns = 0;  // a bulk load from HBM takes this longer per other one of its SM in flight
  double tma_load_gbytes_per_s = 0;    // bytes per SM of all bulk loads together
  double tma_load_l2_ns = 0;           // one bulk load alone: fixed time, source in L2
  double tma_load_hbm_ns = 0;          // ... source in HBM
  double tma_copy_gbytes_per_s = 0;    // one bulk load alone: streaming rate
  double tma_store_ns = 0;             // one bulk store alone: fixed time (its bytes at sm.store_gbytes_per_s)
  double tma_store_holds_engine = 0;   // 1: a bulk store keeps the TMA engine from its issue while its bytes go out
  double tma_store_hold_after_issue_ns = 0;  // ... that hold booked this long after the store's issue (its bytes leave at the issue)
  double tma_load_after_store_ns = 0;  // a bulk load's later start after its thread waited out all its bulk stores
  double tma_load_after_store_issue_ns = 0;  // ... and no sooner than this after the last bulk store's issue
  double tma_partial_store_floor_gbytes_per_s = 0;  // a bulk store with a partial edge line no store of its SM ends at: its thread's next bulk load no sooner than its bytes at this rate after its issue
  double tma_load_unaligned_gbytes_per_s = 0;   // engine rate of a bulk load not on whole 128 B lines (0: tma.load_gbytes_per_s)
  double tma_store_unaligned_gbytes_per_s = 0;  // write rate of a bulk store not on whole 128 B lines (0: sm.store_gbytes_per_s)
  double tma_engine_mva = 0;                    // 1: a copy on an engine its CTA's threads share waits the closed queue's mean wait (tma_engine_mva.h)
  double tma_engine_mva_segments = 0;           // 1: ... and a CTA-wide barrier starts the engine's sums over (a closed queue per stretch)
  double tma_engine_mva_pass_linear = 0;        // 1: ... and a one-pass round (load behind own store) that is not engine-bound sees the linear queue
  double tma_engine_mva_pair_fixed_pass = 0;    // 1: ... and with two threads the pass in service leaves half its length-biased length to wait
  double tma_load_shifted_unaligned = 0;        // 1: a bulk load whose shared destination sits at another offset in its 128 B line than its source is unaligned too
  double tma_load_unaligned_streams_aligned = 0;  // 1: an unaligned bulk load's bytes stream at tma.copy_gbytes_per_s (+ tma.load_unaligned_extra_ns); 0: at its engine rate
  double tma_load_unaligned_extra_ns = 0;       // with tma.load_unaligned_streams_aligned: an unaligned bulk load's extra fixed time
  // NVLink port per GPU and the NVSwitch.
  double nvlink_gpus_per_domain = 0;
  double nvlink_gbytes_per_s = 0;  // per GPU and direction (all links together)
  double nvlink_port_latency_ns = 0;
  double nvlink_switch_ns = 0;
  double nvlink_packet_bytes = 0;  // largest payload of one NVLink packet
  double nvlink_header_bytes = 0;  // per-packet overhead on the wire
  double nvlink_visibility_bytes = 0;
  // PCIe between a GPU and its NIC.
  double pcie_latency_ns = 0;
  double pcie_gbytes_per_s = 0;
  // NIC (RC QPs) and the InfiniBand fabric.
  double nic_gbytes_per_s = 0;
  double nic_wqe_ns = 0;           // NIC occupancy per WQE (message rate)
  double nic_sq_depth = 0;         // default QP depth in 64 B WQEBBs
  double nic_cq_depth = 0;
  double ib_gpus_per_leaf = 0;
  double ib_uplink_gbytes_per_s = 0;
  double ib_port_latency_ns = 0;
  double ib_uplink_latency_ns = 0;
  double ib_leaf_switch_ns = 0;
  double ib_spine_switch_ns = 0;
  double ib_visibility_bytes = 0;
  double ib_path_skew_ns = 0;      // largest extra delay of a message's path (adaptive routing)
  // Host side.
  double host_memcpy_gbytes_per_s = 0;
  double host_memcpy_latency_us = 0;
  double host_launch_us = 0;
  double launch_start_us = 0;      // GPU side of a launch (grid start and drain), put before its CTAs start
  double launch_gap_us = 0;        // from a kernel's end to the next queued one's start
  double memcpy_d2d_us = 0;        // cudaMemcpy device to device: fixed cost
  double memcpy_d2d_gbytes_per_s = 0;  // ... bytes copied per ns
  // Simulation control.
  double sim_quantum_ns = 0;
  double sim_max_time_us = 0;
  double sim_fiber_stack_bytes = 0;

  ParamTable table();
  // The InfiniBand fabric between NICs, in the shape the shared Fabric model builds.
  FabricParams ib_fabric() const;
};

}  // namespace symsim::nv
