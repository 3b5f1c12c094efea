#include "kernels/nvlink/litmus/litmus.cuh"

#include "symsim_launch.cuh"

namespace {

__global__ void litmus(LitmusArgs a) {
  const int role = a.cross_gpu ? a.window.rank : static_cast<int>(blockIdx.x);
  for (int i = 0; i < a.iterations; ++i) {
    int* l = a.locs + 4 * i;
    if (a.test == 0) {
      // MP: the locations live on the reader's GPU. Both threads start each iteration together
      // (an arrival count in the iteration's spare word), so every iteration is a fresh race.
      int* start = a.cross_gpu && role == 0 ? a.window.get_sym_ptr(l + 2, 1) : l + 2;
      ptx::red_add_rel_sys(start, 1);
      while (ptx::ld_acquire_sys(start) != 2) {
      }
      if (role == 0) {
        int* data = a.cross_gpu ? a.window.get_sym_ptr(l + 0, 1) : l + 0;
        int* flag = a.cross_gpu ? a.window.get_sym_ptr(l + 1, 1) : l + 1;
        ptx::st_na(data, 1);
        if (a.fenced) {
          ptx::st_release_sys(flag, 1);
        } else {
          ptx::st_relaxed_sys(flag, 1);
        }
      } else {
        while ((a.fenced ? ptx::ld_acquire_sys(l + 1) : ptx::ld_relaxed_sys(l + 1)) == 0) {
        }
        a.outcomes[2 * i] = ptx::ld_weak(l + 0);
      }
    } else {
      // SB: both threads start together on fresh locations.
      comm::grid_sync(&a.ws->grid_sync_count[0], blockIdx.x, gridDim.x, threadIdx.x);
      ptx::st_relaxed_sys(l + role, 1);
      if (a.fenced) ptx::fence_sc_sys();
      a.outcomes[2 * i + role] = ptx::ld_relaxed_sys(l + (1 - role));
    }
  }
}

}  // namespace

int launch_litmus(int ctas, const LitmusArgs& args) {
  return SYMSIM_LAUNCH_COOPERATIVE(litmus, dim3(ctas), dim3(1), 0, nullptr, args);
}
