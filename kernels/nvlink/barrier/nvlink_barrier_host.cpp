// Host driver of nvlink_barrier: allocates the workspace and the slots in the symmetric heap,
// runs the test kernel, and checks that after every barrier each SM saw every rank's stamp.
#include <fmt/format.h>

#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/nvlink/barrier/nvlink_barrier.cuh"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void nvlink_barrier_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  const int rounds = static_cast<int>(a.u64("rounds"));
  const int ranks = cuda::n_ranks();
  auto* ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  const size_t slots = static_cast<size_t>(rounds) * ranks * sms;
  auto* data = static_cast<int*>(cuda::sym_malloc(slots * sizeof(int)));
  int* errors = nullptr;
  cudaMalloc(&errors, sizeof(int));
  cudaMemset(ws, 0, sizeof(comm::Workspace));
  cudaMemset(data, 0, slots * sizeof(int));
  cudaMemset(errors, 0, sizeof(int));
  const layout::SymBuffer<> sym(cuda::sym_addresses(cuda::sym_heap_base()), static_cast<uint32_t>(rank));
  cuda::host_barrier();

  const int launched = launch_nvlink_barrier_test(sms, threads, ws, sym, data, errors, ranks, rounds,
                                                  static_cast<int>(a.u64("release_sys")));
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: nvlink_barrier_test completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  int seen_errors = -1;
  cudaMemcpy(&seen_errors, errors, sizeof(int), cudaMemcpyDeviceToHost);
  symsim::check(seen_errors == 0,
                fmt::format("gpu {}: after each of {} barriers every SM saw all {} ranks' stamps", rank, rounds, ranks),
                fmt::format("{} stale slots read after a barrier", seen_errors));
  // Everything that arrived here, read back after the kernel: every stamp in place.
  std::vector<int> host(slots);
  cudaMemcpy(host.data(), data, slots * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int r = 0; r < rounds; ++r)
    for (int w = 0; w < ranks; ++w)
      for (int s = 0; s < sms; ++s) wrong += host[(static_cast<size_t>(r) * ranks + w) * sms + s] != nvlink_barrier_stamp(r, w, s);
  symsim::check(wrong == 0, fmt::format("gpu {}: all {} stamps landed", rank, slots), fmt::format("{} missing", wrong));
  // The barrier's signals returned to 0 or N (self-resetting) and its counter counted rounds.
  comm::Workspace w{};
  cudaMemcpy(&w, ws, sizeof(w), cudaMemcpyDeviceToHost);
  symsim::check(w.nvl_barrier_counter == rounds, fmt::format("gpu {}: barrier counter is {}", rank, rounds),
                fmt::format("counter {}", w.nvl_barrier_counter));
}

}  // namespace

SYMSIM_REGISTER_KERNEL(nvlink_barrier, {"nvlink_barrier", "nvidia",
                                        "DeepGEMM/DeepEP-style NVLink barrier (grid sync + red.release.sys signals); "
                                        "checks every SM's weak remote stores are visible after each barrier",
                                        {{"threads", "threads per CTA (>= ranks)", 32, 1024, 128},
                                         {"rounds", "barriers in a row", 1, 10000, 4},
                                         {"release_sys", "1: red.release.sys signals; 0: .gpu (too narrow: a bug)", 0, 1, 1}},
                                        132, nvlink_barrier_host});
