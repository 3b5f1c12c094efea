#include "models/platform/ascend_params.h"

namespace symsim {

ParamTable AscendParams::table() {
  constexpr bool I = true, R = false;
  constexpr double kBig = 1e15;
  return {
      {"aiv.cores", "AIV (vector) cores per PE", I, 1, 256, &aiv_cores},
      {"aiv.ub_bytes", "Unified Buffer capacity per AIV core", I, 1024, 16 << 20, &aiv_ub_bytes},
      {"aiv.scalar_op_ns", "cost of one scalar shim operation", R, 0, 1e6, &aiv_scalar_op_ns},
      {"aiv.mte_latency_ns", "fixed cost of one MTE2/MTE3 copy", R, 0, 1e6, &aiv_mte_latency_ns},
      {"aiv.mte_gbytes_per_s", "MTE copy bandwidth of one core", R, 0.001, 1e5, &aiv_mte_gbytes_per_s},
      {"aiv.dcci_ns", "dcci (clean+invalidate) of one cache line", R, 0, 1e6, &aiv_dcci_ns},
      {"aiv.st_dev_ns", "uncached device store issue", R, 0, 1e6, &aiv_st_dev_ns},
      {"aiv.ld_dev_ns", "uncached device load round trip", R, 0, 1e6, &aiv_ld_dev_ns},
      {"aiv.vector_issue_ns", "fixed cost of one vector instruction", R, 0, 1e6, &aiv_vector_issue_ns},
      {"aiv.vector_repeat_ns", "one 256 B repeat of a vector instruction (per element: sizeof(T)/256 of it)", R, 0, 1e6,
       &aiv_vector_repeat_ns},
      {"aiv.barrier_hop_ns", "one round of the cross-PE vector barrier", R, 0, 1e6, &aiv_barrier_hop_ns},
      {"hbm.bytes", "HBM capacity per PE (address space reserved)", I, 1 << 20, kBig, &hbm_bytes},
      {"hbm.latency_ns", "HBM access latency", R, 0, 1e6, &hbm_latency_ns},
      {"hbm.gbytes_per_s", "HBM bandwidth per PE", R, 0.001, 1e5, &hbm_gbytes_per_s},
      {"udma.sq_depth_bb", "SQ ring depth in 64 B WQEBBs (power of two)", I, 64, 1 << 20, &udma_sq_depth_bb},
      {"udma.cq_depth", "CQ ring depth in CQEs (power of two)", I, 64, 1 << 20, &udma_cq_depth},
      {"udma.doorbell_ns", "doorbell store reaching the engine", R, 0, 1e6, &udma_doorbell_ns},
      {"udma.wqe_ns", "engine occupancy per WQE", R, 0, 1e6, &udma_wqe_ns},
      {"sdma.channels", "copy channels of the die's SDMA engine (queue q runs on channel q % channels)", I, 1, 1024,
       &sdma_channels},
      {"sdma.channel_gbytes_per_s", "copy bandwidth of one SDMA channel", R, 0.001, 1e5, &sdma_channel_gbytes_per_s},
      {"sdma.sqe_ns", "STARS fetch and dispatch of one SDMA SQE", R, 0, 1e6, &sdma_sqe_ns},
      {"roce.gbytes_per_s", "RoCE NIC bandwidth per direction", R, 0.001, 1e5, &roce_gbytes_per_s},
      {"roce.latency_ns", "RoCE NIC to NIC latency, one way", R, 0, 1e7, &roce_latency_ns},
      {"roce.wqe_ns", "RoCE NIC processing per WQE", R, 0, 1e6, &roce_wqe_ns},
      {"roce.xscale_atomics", "1: the NIC has masked FAA / CAS (CANN SHMEM's XSCALE RDMA backend); 0: RoCE atomics stop the kernel",
       I, 0, 1, &roce_xscale_atomics},
      {"aiv.gm_atomics", "1: the core has scalar GM atomics (AtomicAdd / AtomicCas / AtomicExch, Ascend 950); 0: the MTE atomics "
       "other than add stop the kernel", I, 0, 1, &aiv_gm_atomics},
      {"fabric.pes_per_node", "PEs (dies) under one level-1 switch", I, 1, 1 << 16, &fabric_pes_per_node},
      {"fabric.port_gbytes_per_s", "PE port bandwidth per direction", R, 0.001, 1e5, &fabric_port_gbytes_per_s},
      {"fabric.uplink_gbytes_per_s", "L1->L2 bandwidth per node and direction", R, 0.001, 1e6, &fabric_uplink_gbytes_per_s},
      {"fabric.payload_efficiency", "payload share of wire bandwidth", R, 0.01, 1, &fabric_payload_efficiency},
      {"fabric.port_latency_ns", "PE<->L1 link latency per traversal", R, 0, 1e6, &fabric_port_latency_ns},
      {"fabric.uplink_latency_ns", "L1<->L2 link latency per traversal", R, 0, 1e6, &fabric_uplink_latency_ns},
      {"fabric.l1_switch_ns", "level-1 switch traversal", R, 0, 1e6, &fabric_l1_switch_ns},
      {"fabric.l2_switch_ns", "level-2 switch traversal", R, 0, 1e6, &fabric_l2_switch_ns},
      {"fabric.visibility_bytes", "atomic visibility granule of remote writes", I, 8, 1 << 20, &fabric_visibility_bytes},
      {"fabric.path_skew_ns", "largest extra delay of a message's switch plane (unordered WQEs may pass)", R, 0, 1e6,
       &fabric_path_skew_ns},
      {"host.memcpy_gbytes_per_s", "host<->device copy bandwidth", R, 0.001, 1e5, &host_memcpy_gbytes_per_s},
      {"host.memcpy_latency_us", "host<->device copy fixed cost", R, 0, 1e6, &host_memcpy_latency_us},
      {"host.launch_us", "kernel launch overhead", R, 0, 1e6, &host_launch_us},
      {"sim.quantum_ns", "temporal-decoupling quantum of kernel coroutines", R, 1, 1e9, &sim_quantum_ns},
      {"sim.max_time_us", "simulated time limit (timeout hazard past it)", R, 1, 1e12, &sim_max_time_us},
      {"sim.idle_poll_sleep", "1: a core re-reading unchanged bytes sleeps until a write may change them; 0: it spins",
       I, 0, 1, &sim_idle_poll_sleep},
  };
}

FabricParams AscendParams::fabric() const {
  FabricParams f;
  f.pes_per_node = static_cast<int>(fabric_pes_per_node);
  f.port_gbytes_per_s = fabric_port_gbytes_per_s;
  f.uplink_gbytes_per_s = fabric_uplink_gbytes_per_s;
  f.payload_efficiency = fabric_payload_efficiency;
  f.port_latency_ps = ns_to_ps(fabric_port_latency_ns);
  f.uplink_latency_ps = ns_to_ps(fabric_uplink_latency_ns);
  f.l1_switch_ps = ns_to_ps(fabric_l1_switch_ns);
  f.l2_switch_ps = ns_to_ps(fabric_l2_switch_ns);
  f.visibility_bytes = static_cast<uint32_t>(fabric_visibility_bytes);
  f.path_skew_ps = ns_to_ps(fabric_path_skew_ns);
  return f;
}

}  // namespace symsim
