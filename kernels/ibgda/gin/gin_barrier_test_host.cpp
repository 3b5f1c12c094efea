// Host driver of gin_barrier: sets up Gin (RC QPs to every peer, signal words), runs the test
// kernel, and checks that after every barrier each SM saw every stamp written to it.
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "cuda_runtime.h"
#include "kernels/ibgda/gin/gin_barrier_test.cuh"
#include "kernels/registry/kernel_registry.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

void gin_barrier_host(int rank, const symsim::KernelArgs& a) {
  namespace cuda = symsim::cuda;
  const int sms = a.blocks(), threads = static_cast<int>(a.u64("threads"));
  const int ranks = cuda::n_ranks();
  GinBarrierArgs args{};
  args.rounds = static_cast<int>(a.u64("rounds"));
  args.mode = static_cast<int>(a.u64("mode"));
  args.fence_sys = static_cast<int>(a.u64("fence_sys"));
  if (threads < ranks) throw std::invalid_argument("threads must be >= ranks (one thread per peer)");
  if (args.mode == 1 && sms < 2) throw std::invalid_argument("gpu_barrier needs 2 SMs or more");

  cuda::IbgdaOptions o;
  o.qps_per_peer = static_cast<int>(a.u64("qps_per_peer"));
  args.gin = cuda::gin_init(o);
  const int lsa = args.gin.window.lsa_size;
  if (ranks % lsa != 0) throw std::invalid_argument("ranks must fill whole NVLink domains");
  const size_t slots = static_cast<size_t>(args.rounds) * ranks * sms;
  args.ws = static_cast<comm::Workspace*>(cuda::sym_malloc(sizeof(comm::Workspace)));
  args.data = static_cast<int*>(cuda::sym_malloc(slots * sizeof(int)));
  cudaMalloc(&args.src, slots * sizeof(int));
  cudaMalloc(&args.errors, sizeof(int));
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  cudaMemset(args.data, 0, slots * sizeof(int));
  cudaMemset(args.errors, 0, sizeof(int));
  cuda::host_barrier();

  const int launched = launch_gin_barrier_test(sms, threads, args);
  const cudaError_t status = cudaDeviceSynchronize();
  const char* name = args.mode == 0 ? "gin_barrier" : "gpu_barrier";
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: {} test completed", rank, name),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  int stale = -1;
  cudaMemcpy(&stale, args.errors, sizeof(int), cudaMemcpyDeviceToHost);
  symsim::check(stale == 0,
                fmt::format("gpu {}: after each of {} {}s every SM saw the stamps written to it", rank, args.rounds, name),
                fmt::format("{} stale slots read after a barrier", stale));
  // Read back after the kernel: every stamp written here is in place.
  std::vector<int> host(slots);
  cudaMemcpy(host.data(), args.data, slots * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0, expected = 0;
  for (int r = 0; r < args.rounds; ++r)
    for (int w = 0; w < ranks; ++w) {
      if (!gin_barrier_pair(args.mode, w, rank, lsa)) continue;
      for (int s = 0; s < sms; ++s) {
        ++expected;
        wrong += host[(static_cast<size_t>(r) * ranks + w) * sms + s] != gin_barrier_stamp(r, w, s);
      }
    }
  symsim::check(wrong == 0, fmt::format("gpu {}: all {} stamps landed", rank, expected), fmt::format("{} missing", wrong));
}

}  // namespace

SYMSIM_REGISTER_KERNEL(gin_barrier, {"gin_barrier", "nvidia",
                                     "DeepEP V2-style barriers over Gin: gin_barrier (flush, grid sync, RDMA signals "
                                     "to every rank) or gpu_barrier (NVLink barrier + rail Gin barrier); checks every "
                                     "SM sees the NVLink stores and RDMA puts made before each barrier",
                                     {{"threads", "threads per CTA (>= ranks)", 32, 1024, 128},
                                      {"rounds", "barriers in a row", 1, 10000, 4},
                                      {"mode", "0: gin_barrier over all ranks, 1: gpu_barrier (scale-up + rail)", 0, 1, 0},
                                      {"fence_sys", "1: fence.acq_rel.sys before the Gin signals (PR #715); 0: without", 0, 1, 1},
                                      {"qps_per_peer", "RC QPs per peer (Gin channels share them)", 1, 64, 2}},
                                     132, gin_barrier_host});
