// Litmus kernels on the timed PTX model (the runtime counterpart of the tests in
// shared/litmus/ptx): message passing (MP) and store buffering (SB), each iteration on fresh
// locations, with and without the release/acquire or fence that forbids the weak outcome.
//  MP: writer  st data=1; st flag=1 (relaxed, or .release)   reader  poll flag (relaxed, or
//      .acquire) until 1; r = ld data.             weak outcome: r == 0
//  SB: thread a  st x=1; [fence.sc]; ra = ld y     thread b  st y=1; [fence.sc]; rb = ld x
//                                                  weak outcome: ra == rb == 0
// Threads are CTA 0 and 1 of one GPU, or (MP, cross_gpu) GPU 0 writing over NVLink to GPU 1;
// they start every iteration together, so each one is a fresh race.
#pragma once
#include <cstdint>

#include "kernels/nvlink/common/comm.cuh"
#include "sym_buffer.cuh"

struct LitmusArgs {
  int* locs;            // [iterations][4] ints, symmetric, zero
  int* outcomes;        // [iterations][2] ints, local
  comm::Workspace* ws;  // symmetric, zero
  SymWindow window;
  int test;             // 0: MP, 1: SB
  int fenced;
  int iterations;
  int cross_gpu;
};

int launch_litmus(int ctas, const LitmusArgs& args);
