#include "models/nvidia/nvidia_params.h"

namespace symsim::nv {

ParamTable NvidiaParams::table() {
  constexpr bool I = true, R = false;
  constexpr double kBig = 1e15;
  return {
      {"sm.count", "SMs per GPU (one CTA runs per SM)", I, 1, 1024, &sm_count},
      {"sm.clock_ghz", "SM clock: clock64() ticks per ns", R, 0.1, 10, &sm_clock_ghz},
      {"sm.smem_bytes", "shared memory per CTA", I, 1024, 16 << 20, &sm_smem_bytes},
      {"sm.max_threads", "threads per CTA", I, 32, 1024, &sm_max_threads},
      {"sm.op_ns", "issue of one shim operation (store issue, atomic issue, arithmetic call) by one warp alone", R, 0, 1e6, &sm_op_ns},
      {"sm.load_issue_ns", "cost of a weak data load (pipelined: the thread does not wait)", R, 0, 1e6, &sm_load_issue_ns},
      {"sm.syncthreads_ns", "CTA barrier release after the last arrival", R, 0, 1e6, &sm_syncthreads_ns},
      {"sm.mbar_init_fence_ns", "fence.mbarrier_init.release.cluster after a thread's mbarrier inits, one thread", R, 0, 1e6, &sm_mbar_init_fence_ns},
      {"sm.shfl_ns", "a warp shuffle: result after the last lane arrives", R, 0, 1e6, &sm_shfl_ns},
      {"sm.shfl_indep_ns", "a warp shuffle of the same operands as the warp's last shuffle (a loop reading one register across lanes): issue after it, not waiting for its result", R, 0, 1e6, &sm_shfl_indep_ns},
      {"sm.vote_ns", "a warp vote or reduction (ballot, any, all, reduce): result after the last lane arrives", R, 0, 1e6, &sm_vote_ns},
      {"sm.syncwarp_ns", "__syncwarp: release after the last lane arrives", R, 0, 1e6, &sm_syncwarp_ns},
      {"sm.issue_slot_ns", "the SM's time per warp instruction of integer work, shared by its warps (a warp's op costs at least warps x this)", R, 0, 1e6, &sm_issue_slot_ns},
      {"sm.shfl_slot_ns", "the SM's time per warp shuffle, shared by its warps", R, 0, 1e6, &sm_shfl_slot_ns},
      {"sm.vote_slot_ns", "the SM's time per warp vote, shared by its warps", R, 0, 1e6, &sm_vote_slot_ns},
      {"sm.code_insn_ns", "one instruction of the kernel's own code between shim calls (tools/code-weights/as counts them per basic block), one warp alone", R, 0, 1e6, &sm_code_insn_ns},
      {"sm.code_jump_ns", "a jump of the kernel's own code (a branch on the GPU), one warp alone, in place of sm.code_insn_ns", R, 0, 1e6, &sm_code_jump_ns},
      {"sm.code_insn_slot_ns", "the SM's time per warp instruction of kernel code, shared by its warps", R, 0, 1e6, &sm_code_insn_slot_ns},
      {"sm.code_div_ns", "an integer division by a run-time value in the kernel's own code (the GPU's division sequence), one warp, above its one counted instruction", R, 0, 1e6, &sm_code_div_ns},
      {"sm.code_indep_insn_ns", "an instruction (a jump too) of the kernel's own code between two plain global stores or two 16 B data loads of one thread, one warp alone, in place of sm.code_insn_ns / sm.code_jump_ns: a loop over memory whose iterations do not wait for each other, which the GPU's compiler unrolls and issues back to back", R, 0, 1e6, &sm_code_indep_insn_ns},
      {"sm.code_after_bulk_wait_ns", "a thread's kernel code right after a bulk wait_group that waited for its stores costs it this much less (at most the time it waited): the stores' fitted landing (tma.store_ns, rows tma_sm.store.*, probe loops whose code is not charged) holds the loop code the GPU runs after each wait", R, 0, 1e6, &sm_code_after_bulk_wait_ns},
      {"sm.code_uses_loads", "1: the kernel's own code after a data load waits for the load (its value is used before the next shim call); 0: code overlaps loads in flight", I, 0, 1, &sm_code_uses_loads},
      {"sm.load_use_ns", "from a data load's return to its first use by kernel code (with sm.code_uses_loads)", R, 0, 1e6, &sm_load_use_ns},
      {"sm.loads_before_use", "data loads a thread's code issues before it uses the first (the compiled loop's loads ahead of their uses): code after fewer does not wait (with sm.code_uses_loads); for loops that do not name their own count (ptx::LoadsBeforeUse)", I, 1, 16, &sm_loads_before_use},
      {"sm.loads_in_flight_per_thread", "data loads one thread keeps in flight; the next waits for the oldest to return", I, 1, 16, &sm_loads_in_flight},
      {"sm.load_far_bytes", "a 16 B data load at least this far from the first data load of its group (the thread's loads since it last used loaded data) is a far one (with sm.load_far_ns, unless sm.load_far_partition_bits places it); nearer ones issue at sm.load_near_issue_ns", I, 1, kBig, &sm_load_far_bytes},
      {"sm.load_far_ns", "a far 16 B data load (sm.load_far_bytes) of the SM's own GPU returns this much later than a near one; the group's use waits for it (0: off)", R, 0, 1e6, &sm_load_far_ns},
      {"sm.load_far_partition_bits", "device-offset address bits whose parity sends a 16 B data load to one L2 half: with a mask, a data load in the other half from its group's first is the far one (sm.load_far_ns) in place of sm.load_far_bytes' distance (0: the distance)", I, 0, kBig, &sm_load_far_partition_bits},
      {"sm.load_near_issue_ns", "cost of a 16 B data load of the SM's own GPU within sm.load_far_bytes of its group's first (a near one), in place of sm.load_issue_ns", R, 0, 1e6, &sm_load_near_issue_ns},
      {"sm.store_gbytes_per_s", "the SM's write path (stores and bulk stores together)", R, 0.001, 1e5, &sm_store_gbytes_per_s},
      {"sm.store_queue_ns", "how far the SM's write path may be booked ahead of a thread before its next plain store waits (the stores it has queued go out meanwhile)", R, 0, 1e6, &sm_store_queue_ns},
      {"sm.atomic_issue_ns", "one global atomic through the SM's atomic issue port", R, 0, 1e6, &sm_atomic_issue_ns},
      {"l2.effective_bytes", "L2 capacity for scattered lines (least recently used out; a miss goes to HBM)", I, 0, kBig, &l2_effective_bytes},
      {"l2.memset_allocates", "1: a host cudaMemset writes its lines into L2 (the last ones that fit stay, what was there before leaves), as a cudaMemcpy does; 0: it leaves the L2 as it was", I, 0, 1, &l2_memset_allocates},
      {"l2.memset_displaces", "with l2.memset_allocates 0: 1, a host cudaMemset's writes pass through the L2 and push out as many of its least recently used lines as they need room for (a memset larger than the L2 leaves none of what was there), without its own lines staying; 0: it leaves the L2 as it was", I, 0, 1, &l2_memset_displaces},
      {"l2.hits_wait_for_fill", "1: a plain 16 B load hitting a line that another load is still bringing in from HBM waits until the line is in (a warp's lanes on one missing line all wait for its fill: one LDG.128 on the GPU); 0: it hits at once. Narrower loads (words) always hit at once", I, 0, 1, &l2_hits_wait_for_fill},
      {"atomic.unit_ns", "a returning atomic above a load's L2 round trip", R, 0, 1e6, &atomic_unit_ns},
      {"atomic.miss_ns", "a returning atomic's extra time when its line is not in L2", R, 0, 1e6, &atomic_miss_ns},
      {"atomic.same_address_ns", "an atomic's L2 slot after the previous one on the same address (a warp's same-address lanes share one)", R, 0, 1e6, &atomic_same_address_ns},
      {"l2.latency_ns", "one-way SM -> L2 latency (a load round trip is twice this)", R, 0, 1e6, &l2_latency_ns},
      {"hbm.latency_ns", "extra latency of a bulk read served by HBM rather than L2 (kernels read their inputs once)", R, 0, 1e6, &hbm_latency_ns},
      {"hbm.bytes", "HBM per GPU (address space reserved; pages touched on use)", I, 1 << 20, kBig, &hbm_bytes},
      {"hbm.gbytes_per_s", "HBM bandwidth per GPU", R, 0.001, 1e5, &hbm_gbytes_per_s},
      {"mem.reorder_window_ns", "largest seeded extra delay of a weak or relaxed store to local memory", R, 0, 1e6, &mem_reorder_window_ns},
      {"nvlink.reorder_window_ns", "largest seeded extra delay of a weak or relaxed store to an NVLink peer", R, 0, 1e6, &nvlink_reorder_window_ns},
      {"mem.fence_sys_ns", "extra cost of a system-scope fence", R, 0, 1e6, &fence_sys_ns},
      {"mem.fence_gpu_ns", "extra cost of a GPU-scope fence (release at GPU scope included)", R, 0, 1e6, &fence_gpu_ns},
      {"mem.fence_sys_hides_local_drain", "1: a system-scope fence's own time covers draining writes to the thread's own GPU (they then cost a GPU-scope drain only); 0: it starts after them", I, 0, 1, &fence_sys_hides_local},
      {"mem.idle_release_pays_fence", "1: a release store or atomic whose thread has no write in flight pays mem.fence_gpu_ns / mem.fence_sys_ns as a fence does; 0: its MEMBAR costs nothing then (fence instructions pay always); 2: only at system scope", I, 0, 2, &idle_release_pays_fence},
      {"mem.acquire_load_ns", "an acquire load (ld.acquire: LDG.STRONG then CCTL.IVALL, the L1's invalidation) of a word the thread changed by one of its last two atomics or reds (a grid sync's or a barrier's poll): the thread's next instruction issues this long after the load's return", R, 0, 1e6, &acquire_load_ns},
      {"mem.acquire_sys_load_ns", "as mem.acquire_load_ns, for a system-scope acquire load (ld.acquire.sys: LDG.STRONG.SYS then CCTL.IVALL)", R, 0, 1e6, &acquire_sys_load_ns},
      {"mem.poll_phase_ns", "a GPU-scope acquire poll loop's second poll goes out this x (CTA index) / (CTAs in the launch) later: the pollers' phases spread over their poll period, as on the GPU", R, 0, 1e6, &poll_phase_ns},
      {"mem.poll_phase_once", "1: mem.poll_phase_ns delays the second poll of a thread's first GPU-scope acquire poll loop of the launch only; its later loops keep the phase the earlier ones left (on the GPU a CTA's poll loop keeps its phase, and the last arrival of a grid sync rotates through the CTAs); 0: every such loop's second poll", I, 0, 1, &poll_phase_once},
      {"mem.acquire_gpu_last_rmw", "1: a GPU-scope acquire load pays mem.acquire_load_ns for a word the thread changed only when that was its last atomic or red (the poll behind a grid sync's arrival), not the one before; system scope keeps the last two (the NVLink barrier's poll behind its signal's and its counter's red); 0: the last two at both scopes", I, 0, 1, &acquire_gpu_last_rmw},
      {"mem.acquire_on_change", "1: a GPU-scope acquire poll (ld.acquire.gpu) also pays mem.acquire_load_ns when it reads another value than the thread's last poll of the word read (another SM's store seen: the flag rows); 0: only a load of the thread's own atomic's word pays", I, 0, 1, &acquire_on_change},
      {"tma.issue_ns", "TMA bulk-copy issue and completion overhead", R, 0, 1e6, &tma_issue_ns},
      {"tma.load_issue_ns", "issuing thread's cost per bulk load", R, 0, 1e6, &tma_load_issue_ns},
      {"tma.arm_ns", "issuing thread's cost to arm an mbarrier for bulk loads (arrive.expect_tx or expect_tx)", R, 0, 1e6, &tma_arm_ns},
      {"tma.armed_wait_ns", "a thread waiting on an mbarrier phase armed for bulk loads goes on this long after the phase completes (or after its wait, if later)", R, 0, 1e6, &tma_armed_wait_ns},
      {"tma.armed_wait_spin_ns", "a thread whose wait on a phase armed for bulk loads ends within this long of its start (the phase completing meanwhile) pays tma.armed_wait_ns from the wait's start, not from the completion; 0: always from the completion", R, 0, 1e6, &tma_armed_wait_spin_ns},
      {"tma.store_issue_ns", "issuing thread's cost per bulk store", R, 0, 1e6, &tma_store_issue_ns},
      {"tma.store_gap_ns", "one thread's bulk stores issue at most one per this long: its next bulk store waits, its other work goes on", R, 0, 1e6, &tma_store_gap_ns},
      {"tma.engine_ns", "TMA engine occupancy per copy (at least)", R, 0, 1e6, &tma_engine_ns},
      {"tma.load_gbytes_per_s", "bytes per SM of all bulk loads together", R, 0.001, 1e5, &tma_load_gbytes_per_s},
      {"tma.load_l2_ns", "one bulk load alone: fixed time with its source in L2", R, 0, 1e6, &tma_load_l2_ns},
      {"tma.load_hbm_ns", "one bulk load alone: fixed time with its source in HBM", R, 0, 1e6, &tma_load_hbm_ns},
      {"tma.copy_gbytes_per_s", "one bulk load alone: streaming rate", R, 0.001, 1e5, &tma_copy_gbytes_per_s},
      {"tma.store_ns", "one bulk store alone: fixed time (its bytes go at sm.store_gbytes_per_s)", R, 0, 1e6, &tma_store_ns},
      {"tma.store_holds_engine", "1: a bulk store keeps the SM's TMA engine from its issue while its bytes go out on the write path (bulk loads issued meanwhile queue behind it); 0: it takes the engine for tma.engine_ns only", I, 0, 1, &tma_store_holds_engine},
      {"tma.load_after_store_ns", "a bulk load issued after its thread waited for all its bulk stores (wait_group with none left in flight) starts this much later", R, 0, 1e6, &tma_load_after_store_ns},
      {"tma.load_after_store_issue_ns", "that bulk load (after its thread waited out all its bulk stores) starts no sooner than this after the thread's last bulk store was issued, whichever of the two is later (0: no floor)", R, 0, 1e6, &tma_load_after_store_issue_ns},
      {"tma.load_unaligned_gbytes_per_s", "bytes per SM of a bulk load whose source starts or ends inside a 128 B line, as its engine occupancy, and its streaming rate where lower than tma.copy_gbytes_per_s (0: tma.load_gbytes_per_s and tma.copy_gbytes_per_s, as aligned loads)", R, 0, 1e5, &tma_load_unaligned_gbytes_per_s},
      {"tma.load_shifted_unaligned", "1: a bulk load whose shared-memory destination sits at another offset within a 128 B line than its global source (a 16 B header before the row) takes the engine at tma.load_unaligned_gbytes_per_s too; 0: only the source's own alignment counts", I, 0, 1, &tma_load_shifted_unaligned},
      {"tma.engine_mva", "1: once a second thread of the SM's CTA has used its TMA engine, a thread's bulk copy after its first (a load's occupancy, a store's hold) waits the closed queue's mean wait E x Q(N - 1) by exact mean-value analysis (N the participation ratio of the threads that used the engine by their engine time, D / E their summed time away from it between copies per engine time), not the FIFO engine's queue (models/nvidia/tma_engine_mva.h); 0: the FIFO engine", I, 0, 1, &tma_engine_mva},
      {"tma.engine_mva_segments", "1: with tma.engine_mva, a CTA-wide barrier (__syncthreads, each grid sync's) starts the mean-value engine over: its time away per engine time, its population and each thread's first copy on the FIFO engine, as at the CTA's start, so each stretch of the kernel between two barriers (dispatch's send loop, its receive loop) queues with its own time away; 0: the sums run over the whole launch", I, 0, 1, &tma_engine_mva_segments},
      {"tma.store_unaligned_gbytes_per_s", "the SM's write rate for a bulk store whose destination starts or ends inside a 128 B line (0: sm.store_gbytes_per_s, as aligned stores)", R, 0, 1e5, &tma_store_unaligned_gbytes_per_s},
      {"nvlink.gpus_per_domain", "GPUs under one NVSwitch (the NVLink domain)", I, 1, 1024, &nvlink_gpus_per_domain},
      {"nvlink.gbytes_per_s", "NVLink bandwidth per GPU and direction (all links)", R, 0.001, 1e5, &nvlink_gbytes_per_s},
      {"nvlink.port_latency_ns", "GPU <-> NVSwitch link latency per traversal", R, 0, 1e6, &nvlink_port_latency_ns},
      {"nvlink.switch_ns", "NVSwitch traversal", R, 0, 1e6, &nvlink_switch_ns},
      {"nvlink.packet_bytes", "largest payload of one NVLink packet", I, 16, 4096, &nvlink_packet_bytes},
      {"nvlink.header_bytes", "wire overhead per NVLink packet", I, 0, 4096, &nvlink_header_bytes},
      {"nvlink.visibility_bytes", "granule in which remote bulk data lands", I, 16, 1 << 20, &nvlink_visibility_bytes},
      {"pcie.latency_ns", "one-way GPU <-> NIC latency over PCIe", R, 0, 1e6, &pcie_latency_ns},
      {"pcie.gbytes_per_s", "GPU <-> NIC PCIe bandwidth per direction", R, 0.001, 1e5, &pcie_gbytes_per_s},
      {"nic.gbytes_per_s", "NIC port bandwidth per direction", R, 0.001, 1e5, &nic_gbytes_per_s},
      {"nic.wqe_ns", "NIC occupancy per WQE (message rate)", R, 0, 1e6, &nic_wqe_ns},
      {"nic.sq_depth", "default QP depth in 64 B WQEBBs (power of two)", I, 2, 1 << 16, &nic_sq_depth},
      {"nic.cq_depth", "default CQ depth in 64 B CQEs (power of two)", I, 2, 1 << 16, &nic_cq_depth},
      {"ib.gpus_per_leaf", "NICs (GPUs) under one leaf switch", I, 1, 1 << 16, &ib_gpus_per_leaf},
      {"ib.uplink_gbytes_per_s", "leaf <-> spine bandwidth per leaf and direction", R, 0.001, 1e6, &ib_uplink_gbytes_per_s},
      {"ib.port_latency_ns", "NIC <-> leaf link latency per traversal", R, 0, 1e6, &ib_port_latency_ns},
      {"ib.uplink_latency_ns", "leaf <-> spine link latency per traversal", R, 0, 1e6, &ib_uplink_latency_ns},
      {"ib.leaf_switch_ns", "leaf switch traversal", R, 0, 1e6, &ib_leaf_switch_ns},
      {"ib.spine_switch_ns", "spine switch traversal", R, 0, 1e6, &ib_spine_switch_ns},
      {"ib.visibility_bytes", "granule in which RDMA data lands at the target (PCIe write size)", I, 8, 1 << 20, &ib_visibility_bytes},
      {"ib.path_skew_ns", "largest extra delay a message picks up from its path (adaptive routing); messages of different QPs may then pass each other", R, 0, 1e6, &ib_path_skew_ns},
      {"host.memcpy_gbytes_per_s", "host <-> device copy bandwidth", R, 0.001, 1e5, &host_memcpy_gbytes_per_s},
      {"host.memcpy_latency_us", "host <-> device copy fixed cost", R, 0, 1e6, &host_memcpy_latency_us},
      {"host.launch_us", "kernel launch overhead", R, 0, 1e6, &host_launch_us},
      {"gpu.launch_start_us", "GPU side of a kernel launch (grid start and drain), counted in the kernel's time", R, 0, 1e6, &launch_start_us},
      {"gpu.launch_gap_us", "from a kernel's end to the start of one queued behind it", R, 0, 1e6, &launch_gap_us},
      {"gpu.memcpy_d2d_us", "cudaMemcpy device to device: fixed cost", R, 0, 1e6, &memcpy_d2d_us},
      {"gpu.memcpy_d2d_gbytes_per_s", "cudaMemcpy device to device: bytes copied per ns", R, 0.001, 1e5, &memcpy_d2d_gbytes_per_s},
      {"sim.quantum_ns", "how far a CUDA thread may run ahead of SystemC time between sync points", R, 1, 1e9, &sim_quantum_ns},
      {"sim.max_time_us", "simulated time limit (timeout hazard past it)", R, 1, 1e12, &sim_max_time_us},
      {"sim.fiber_stack_bytes", "stack of one CUDA-thread fiber (address space; pages touched on use)", I, 16384, 64 << 20, &sim_fiber_stack_bytes},
  };
}

FabricParams NvidiaParams::ib_fabric() const {
  FabricParams f;
  f.pes_per_node = static_cast<int>(ib_gpus_per_leaf);
  f.port_gbytes_per_s = nic_gbytes_per_s;
  f.uplink_gbytes_per_s = ib_uplink_gbytes_per_s;
  f.payload_efficiency = 1.0;  // the NIC rate is a payload rate (ibstat rate / 8)
  f.port_latency_ps = ns_to_ps(ib_port_latency_ns);
  f.uplink_latency_ps = ns_to_ps(ib_uplink_latency_ns);
  f.l1_switch_ps = ns_to_ps(ib_leaf_switch_ns);
  f.l2_switch_ps = ns_to_ps(ib_spine_switch_ns);
  f.visibility_bytes = static_cast<uint32_t>(ib_visibility_bytes);
  f.path_skew_ps = ns_to_ps(ib_path_skew_ns);
  return f;
}

}  // namespace symsim::nv
