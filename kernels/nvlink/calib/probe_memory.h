// The probe's device memory across symsim-hw's repetitions (issue 19, s22-window).
// symsim-hw runs calib_probe's host program once per repetition. A new, never-freed window per
// repetition made multi-warp / multi-CTA rows climb 30-170 ns over the first 4-6 repetitions
// (hw/diff/results/h200-2026-12-04-s21-dev2/): so on the GPU each allocation of the probe is the
// same block at every repetition, and memory meant to be never written is read out of L2 first.
// The simulator runs the host program once: plain cudaMalloc, nothing else (results unchanged).
#pragma once
#include <cstddef>

#include "cuda_runtime.h"

namespace calib_probe_memory {

// Which allocation of the probe's host program: one block per (PE, slot) on the GPU.
enum Slot { kWindow, kEvict, kWord, kStamps, kOut, kRoute, kWorkspace, kSlots };

#if defined(SYMSIM_HW)
// The block of `bytes` this PE got for `slot` at an earlier repetition (a new one the first time,
// or when the size differs).
void* device_block(int rank, Slot slot, size_t bytes);
// Reads 160 MiB of other memory (more than the 60 MiB L2) with a kernel, so that no line of the
// probe's memory from an earlier repetition is left in L2 and none is left dirty either.
void push_out_of_l2(int rank);
#else
inline void* device_block(int /*rank*/, Slot /*slot*/, size_t bytes) {
  void* p = nullptr;
  cudaMalloc(&p, bytes);
  return p;
}
inline void push_out_of_l2(int /*rank*/) {}
#endif

}  // namespace calib_probe_memory
