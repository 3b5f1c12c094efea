// Parameters of an Ascend UDMA platform. Values come from a preset file
// (scenarios/platforms/*.json) where each one names its source; these fields have no defaults
// on purpose: a preset must set every one.
#pragma once
#include "models/core/time.h"
#include "models/fabric/fabric.h"
#include "models/platform/param_table.h"

namespace symsim {

struct AscendParams {
  // AIV core and its pipes.
  double aiv_cores = 0;
  double aiv_ub_bytes = 0;
  double aiv_scalar_op_ns = 0;      // one shim scalar operation (store, load, compare)
  double aiv_mte_latency_ns = 0;    // fixed cost of one MTE2/MTE3 copy
  double aiv_mte_gbytes_per_s = 0;  // one core's MTE copy bandwidth
  double aiv_dcci_ns = 0;           // clean+invalidate of one cache line
  double aiv_st_dev_ns = 0;         // uncached device store issue (doorbells)
  double aiv_ld_dev_ns = 0;         // uncached device load round trip
  double aiv_vector_issue_ns = 0;   // fixed cost of one vector instruction (pipeline fill)
  double aiv_vector_repeat_ns = 0;  // one 256 B repeat of a vector instruction
  double aiv_barrier_hop_ns = 0;    // one round of the cross-PE barrier
  // HBM of one PE.
  double hbm_bytes = 0;
  double hbm_latency_ns = 0;
  double hbm_gbytes_per_s = 0;
  // UDMA engine and queues.
  double udma_sq_depth_bb = 0;
  double udma_cq_depth = 0;
  double udma_doorbell_ns = 0;  // doorbell store reaching the engine
  double udma_wqe_ns = 0;       // engine occupancy per WQE (message rate)
  // SDMA engine (STARS system DMA) and RoCE NIC.
  double sdma_channels = 0;                // copy channels of the die's SDMA engine
  double sdma_channel_gbytes_per_s = 0;    // one channel's copy bandwidth
  double sdma_sqe_ns = 0;                  // STARS fetch and dispatch of one SQE
  double roce_gbytes_per_s = 0;            // the die's RDMA bandwidth per direction
  double roce_latency_ns = 0;              // NIC to NIC, one way
  double roce_wqe_ns = 0;                  // NIC processing per WQE
  double roce_xscale_atomics = 0;          // 1: the NIC's masked FAA / CAS (upstream's XSCALE backend)
  double aiv_gm_atomics = 0;               // 1: scalar GM atomics AtomicAdd / AtomicCas / AtomicExch (Ascend 950)
  // UB fabric.
  double fabric_pes_per_node = 0;
  double fabric_port_gbytes_per_s = 0;
  double fabric_uplink_gbytes_per_s = 0;
  double fabric_payload_efficiency = 0;
  double fabric_port_latency_ns = 0;
  double fabric_uplink_latency_ns = 0;
  double fabric_l1_switch_ns = 0;
  double fabric_l2_switch_ns = 0;
  double fabric_visibility_bytes = 0;
  double fabric_path_skew_ns = 0;  // largest extra delay of a message's switch plane
  // Host side.
  double host_memcpy_gbytes_per_s = 0;
  double host_memcpy_latency_us = 0;
  double host_launch_us = 0;
  // Simulation control.
  double sim_quantum_ns = 0;
  double sim_max_time_us = 0;
  double sim_idle_poll_sleep = 0;  // 1: a core re-reading unchanged bytes sleeps until a write

  ParamTable table();
  FabricParams fabric() const;
  Ps ns(double v) const { return ns_to_ps(v); }
};

}  // namespace symsim
