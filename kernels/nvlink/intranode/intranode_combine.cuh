// DeepEP V2-style intranode combine over NVLink (the reverse of intranode_dispatch,
// nvidia-symmem.md 3d): each rank holds the expert outputs of the tokens dispatched to it; a
// warp per held token TMA-loads the output row into shared memory and TMA-stores it straight
// into the origin's receive buffer, in the token's slot for this rank, through its symmetric
// pointer. The stores are waited for (bulk wait_group), an NVLink barrier publishes them, and
// each rank reduces, per token, the rows of the ranks its top-k chose (int32 sums: exact).
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "sym_buffer.cuh"

struct IntranodeCombineArgs {
  const int* held_src;      // [held][2], local: (origin rank, token) of each expert output held here
  const int32_t* held_out;  // [held][hidden_ints], local: the expert outputs
  const int* topk_idx;      // [num_tokens][topk], local: this rank's routing
  int32_t* recv;            // [num_tokens][ranks][hidden_ints], symmetric: rows from each rank
  int32_t* out;             // [num_tokens][hidden_ints], local: the combined tokens
  comm::Workspace* ws;      // symmetric, zeroed
  SymWindow window;
  int held, num_tokens, hidden_ints, topk, num_experts;
};

constexpr int kCombineMbarBytes = 1024;  // one mbarrier per warp at the front of shared memory
inline int combine_smem_bytes(int warps, int hidden_ints) {
  return kCombineMbarBytes + warps * hidden_ints * static_cast<int>(sizeof(int32_t));
}

int launch_intranode_combine(int sms, int threads, const IntranodeCombineArgs& args);
