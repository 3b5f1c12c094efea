// DeepEP V2-style intranode dispatch over NVLink with TMA (nvidia-symmem.md 3d, direct mode):
// each warp takes tokens in turn, TMA-loads one into shared memory behind a 16 B header (source
// token index and rank), works out its destination ranks (deduplicated across its top-k),
// takes a slot on each with a local atomic, and TMA-stores the message straight into the
// destination's receive buffer through its symmetric pointer. Then the per-source counts go
// to each receiver with st.relaxed.sys, an NVLink barrier publishes everything, and each rank
// packs what it received (in source-rank, slot order) into a local output.
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "sym_buffer.cuh"

struct IntranodeDispatchArgs {
  const uint8_t* x;          // [num_tokens][hidden_bytes], local
  const int* topk_idx;       // [num_tokens][topk], local
  int* send_counter;         // [ranks], local, zeroed
  uint8_t* recv_buf;         // [ranks (source)][max_tokens][msg_bytes], symmetric
  int* recv_count;           // [ranks (source)], symmetric, zeroed: count + 1 once published
  comm::Workspace* ws;       // symmetric, zeroed
  uint8_t* recv_x;           // [ranks * max_tokens][msg_bytes], local: the packed output
  int* recv_total;           // local
  SymWindow window;
  int num_tokens, hidden_bytes, topk, num_experts, max_tokens;
};

// Header of a message: which token of which rank.
struct DispatchHeader {
  int token;
  int src_rank;
  int pad[2];
};

constexpr int kDispatchMbarBytes = 1024;  // mbarriers at the front of shared memory
inline int dispatch_smem_bytes(int warps, int msg_bytes) { return kDispatchMbarBytes + warps * 2 * msg_bytes; }

int launch_intranode_dispatch(int sms, int threads, const IntranodeDispatchArgs& args);
