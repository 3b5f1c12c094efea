// A probe of the GPU-driven NIC: GPU 0's thread 0 posts `count` operations to GPU 1 over one
// RC QP (the IBGDA protocol of ibgda_device.cuh), then optionally waits for completion:
//  mode 0  WRITE of a stamped payload into slot i, then an RDMA atomic +1 on signal i (on the
//          same QP, or `atomic_qp` QPs over); GPU 1 polls each signal and then reads its slot;
//  mode 1  WRITEs only (SQ and CQ behaviour: overrun, collapsed CQ, overflow).
#pragma once
#include <cstdint>

#include "gin_device.cuh"

struct RdmaProbeArgs {
  const ibgda::State* rdma;
  uint8_t* src;       // [count][bytes], symmetric (registered), GPU 0 fills
  uint8_t* dst;       // [count][bytes], symmetric
  int* signals;       // [count], symmetric, zero
  int* errors;        // local: slots read wrong after their signal (GPU 1)
  int mode;
  int count;
  int bytes;
  int atomic_qp;      // QP offset of the atomics (0: the data's QP)
  int quiet;          // GPU 0 waits for every completion at the end
  int rank;
};

int launch_rdma_probe(const RdmaProbeArgs& args);
