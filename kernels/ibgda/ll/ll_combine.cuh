// DeepEP V1-style low-latency combine over GPU-driven RDMA (the reverse of ll_dispatch,
// nvidia-symmem.md 3a): each rank holds, per local expert, the outputs for the tokens routed
// to it; a warp per (local expert, origin) pair sends every row with put_nbi_warp into the
// origin's receive buffer at (token, top-k slot), on the QP of that expert, then adds 1 to the
// origin's flag for the expert with an RDMA atomic on the same QP, which RC orders after the
// rows (a warp copy and st.release.sys for itself). Each origin waits for every expert's flag
// and reduces each token's top-k rows (int32 sums: exact).
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "gin_device.cuh"

struct LLCombineArgs {
  const int* held;           // [held][4], local: (local expert, origin rank, origin token, top-k slot)
  const int* pair_begin;     // [local experts * ranks + 1], local: rows of pair (le, origin) in `held`
  const int32_t* held_out;   // [held][hidden_ints], local: the expert outputs
  const int* topk_idx;       // [tokens][topk], local: this rank's routing (-1: masked slot)
  int32_t* recv;             // [tokens][topk][hidden_ints], symmetric
  int* recv_flag;            // [experts], symmetric, zero: 1 once that expert's rows for this rank are in
  int32_t* out;              // [tokens][hidden_ints], local
  const ibgda::State* rdma;
  SymWindow window;
  int tokens, hidden_ints, topk, experts;
};

int launch_ll_combine(int sms, int threads, const LLCombineArgs& args);
