// DeepGEMM-style pull dispatch over NVLink (nvidia-symmem.md: DeepGEMM reaches peers through
// SymBuffer::map and pulls with remote TMA loads): every rank leaves its tokens and top-k
// routing in symmetric memory; after an NVLink barrier each warp takes (source, token) pairs
// in turn, reads the pair's routing from the source with weak NVLink loads, and when one of
// the token's experts lives here takes an output slot, pulls the token with a 1D bulk load
// from the source's memory into shared memory, and bulk-stores it into the local output. A
// last NVLink barrier keeps sources from reusing their buffers while peers still pull.
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "sym_buffer.cuh"

struct PullDispatchArgs {
  const uint8_t* x;        // [num_tokens][hidden_bytes], symmetric
  const int* topk_idx;     // [num_tokens][topk], symmetric
  comm::Workspace* ws;     // symmetric, zeroed
  uint8_t* recv_x;         // [ranks * num_tokens][hidden_bytes], local: pulled tokens
  int* recv_src;           // [ranks * num_tokens][2], local: (source rank, token) of each
  int* recv_counter;       // local, zeroed: output slots taken
  int num_ranks, num_tokens, hidden_bytes, topk, num_experts;
};

constexpr int kPullMbarBytes = 1024;  // one mbarrier per warp at the front of shared memory
inline int pull_smem_bytes(int warps, int hidden_bytes) { return kPullMbarBytes + warps * hidden_bytes; }

// `sym` maps this rank's buffer to every rank's; num_ranks 1, 2, 4 or 8 (the kernel's kNumRanks).
int launch_pull_dispatch(int sms, int threads, const PullDispatchArgs& args, const layout::SymBuffer<>& sym);
