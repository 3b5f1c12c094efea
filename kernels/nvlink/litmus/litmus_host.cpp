// Host driver of the litmus kernels: counts the weak outcomes the reader(s) recorded. With
// the fence (release/acquire, fence.sc) the count must be zero; without it, `expect_weak`
// asks that the weak outcome showed up at least once under this seed.
#include <fmt/format.h>

#include <vector>

#include "cuda_runtime.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/nvlink/litmus/litmus.cuh"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void litmus_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  LitmusArgs args{};
  args.test = static_cast<int>(a.u64("test"));
  args.fenced = static_cast<int>(a.u64("fenced"));
  args.iterations = static_cast<int>(a.u64("iterations"));
  args.cross_gpu = static_cast<int>(a.u64("cross_gpu"));
  if (args.cross_gpu && (cuda::n_ranks() != 2 || args.test != 0))
    throw std::invalid_argument("cross_gpu runs MP on exactly 2 GPUs");
  if (!args.cross_gpu && cuda::n_ranks() != 1) throw std::invalid_argument("same-GPU litmus runs on 1 GPU");
  const size_t n = static_cast<size_t>(args.iterations);
  args.locs = static_cast<int*>(cuda::sym_malloc(n * 4 * sizeof(int)));
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  cudaMalloc(&args.outcomes, n * 2 * sizeof(int));
  cudaMemset(args.locs, 0, n * 4 * sizeof(int));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  cudaMemset(args.outcomes, 0xff, n * 2 * sizeof(int));
  args.window = cuda::sym_window();
  cuda::host_barrier();
  const int launched = launch_litmus(args.cross_gpu ? 1 : 2, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: litmus kernel completed", rank),
                fmt::format("launch {}, synchronize {}", launched, status));
  if (args.cross_gpu && rank == 0) return;  // the writer records nothing

  std::vector<int> out(n * 2);
  cudaMemcpy(out.data(), args.outcomes, out.size() * sizeof(int), cudaMemcpyDeviceToHost);
  size_t weak = 0;
  for (size_t i = 0; i < n; ++i)
    weak += args.test == 0 ? out[2 * i] == 0 : (out[2 * i] == 0 && out[2 * i + 1] == 0);
  const char* name = args.test == 0 ? (args.cross_gpu ? "MP across NVLink" : "MP across CTAs") : "SB across CTAs";
  const std::string detail = fmt::format("weak outcome in {} of {} iterations", weak, n);
  if (args.fenced) {
    symsim::check(weak == 0, fmt::format("{} with {}: the weak outcome never appears", name,
                                         args.test == 0 ? "release/acquire" : "fence.sc"),
                  detail);
  } else if (a.u64("expect_weak")) {
    symsim::check(weak > 0, fmt::format("{} without fences: the weak outcome appears under this seed", name), detail);
  } else {
    symsim::check(true, fmt::format("{} without fences", name), detail);
  }
}

}  // namespace

SYMSIM_REGISTER_KERNEL(litmus, {"litmus", "nvidia",
                                "MP / SB litmus tests on the timed PTX ordering model (fresh locations per iteration)",
                                {{"test", "0: message passing, 1: store buffering", 0, 1, 0},
                                 {"fenced", "1: release/acquire (MP) or fence.sc (SB)", 0, 1, 0},
                                 {"iterations", "iterations (fresh locations each)", 1, 100000, 200},
                                 {"cross_gpu", "MP only: writer on GPU 0 storing over NVLink to GPU 1", 0, 1, 0},
                                 {"expect_weak", "unfenced: require the weak outcome under this seed", 0, 1, 0}},
                                2, litmus_host});
