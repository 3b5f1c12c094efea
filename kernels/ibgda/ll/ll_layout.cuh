// Buffers of DeepEP V1-style low-latency dispatch/combine (nvidia-symmem.md 3a): two copies
// (even and odd calls) of the send buffer, the receive buffer and the per-expert count
// signals, so consecutive calls need no barrier: each call zeroes the other copy's signals.
// Message = 16 B header (source token, source rank) + payload (FP8 hidden + scales).
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "gin_device.cuh"

struct LLHeader {
  int token;
  int src_rank;
  int pad[2];
};

struct LLBuffer {
  uint8_t* send;      // [tokens][msg]
  uint8_t* recv;      // [local experts][ranks][tokens][msg]
  int* recv_count;    // [local experts][ranks]: 0 = not yet, else -count-1
};

struct LLDispatchArgs {
  const uint8_t* x;        // [tokens][payload], local
  const int* topk_idx;     // [tokens][topk], local
  int* expert_counter;     // [experts], local, zero (the kernel leaves it zero)
  LLBuffer buf[2];         // symmetric
  int buffer_idx;          // which copy this call uses
  uint8_t* packed_x;       // [local experts][ranks * tokens][msg], local
  int* packed_count;       // [local experts], local, zero
  comm::Workspace* ws;     // symmetric (grid sync counters), zero
  const ibgda::State* rdma;
  SymWindow window;
  int tokens, payload_bytes, topk, experts;
  int allow_nvlink;        // NVLink peers by warp copies (else RDMA to every other rank)
  int count_qp_offset;     // 0: counts on the data's QP; else another QP (unordered: a bug)
};

__host__ __device__ inline int ll_msg_bytes(int payload_bytes) { return static_cast<int>(sizeof(LLHeader)) + payload_bytes; }

int launch_ll_dispatch(int sms, int threads, const LLDispatchArgs& args);
