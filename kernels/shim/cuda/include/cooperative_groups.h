// cooperative_groups subset: this_grid().sync() (a grid barrier over a counter in global
// memory, as the CUDA runtime implements it: release-add, acquire-poll) and this_thread_block().
#pragma once
#include "cuda_runtime.h"

namespace cooperative_groups {

struct grid_group {
  void sync(::symsim::nv::Site s = SYMSIM_HERE) const;
  unsigned long long size() const;
  unsigned long long thread_rank() const;
};
struct thread_block {
  void sync(::symsim::nv::Site s = SYMSIM_HERE) const { __syncthreads(s); }
  unsigned thread_rank() const;
  unsigned size() const;
};
grid_group this_grid();
thread_block this_thread_block();

}  // namespace cooperative_groups
